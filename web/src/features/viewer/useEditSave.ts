import type { FileDetail } from '@dam/contract';
import { App } from 'antd';
import { type MutableRefObject, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { notifySuccess } from '../../api/notify';
import { showApiError } from '../../api/showApiError';
import { viewerApi } from './api';
import type { EditValues } from './editValues';

/**
 * Saving the edit form: once at a time, asking before two files merge (SEF_07), then refreshing
 * the listings and telling the viewer which file to show.
 */
export function useEditSave({
  file,
  changed,
  refresh,
  onDone,
  onMerged,
}: {
  file: FileDetail;
  changed: MutableRefObject<() => boolean>;
  refresh: () => Promise<unknown>;
  onDone: () => void;
  onMerged: (id: number) => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const saving = useRef(false);
  const [savingShown, setSavingShown] = useState(false);

  const save = async (values: EditValues) => {
    // Enter in the date picker confirms the date and submits the form in one keystroke; a second
    // submit while the first is under way is the same save, not another.
    if (saving.current) return;
    saving.current = true;
    setSavingShown(true);
    try {
      await saveOnce(values);
    } finally {
      saving.current = false;
      setSavingShown(false);
    }
  };

  const saveOnce = async (values: EditValues) => {
    const body = {
      folderDataId: file.id,
      ...(values.name.trim() !== file.name ? { name: values.name.trim() } : {}),
      startValidTime: values.validity?.[0]?.format('YYYY-MM-DD') ?? null,
      endValidTime: values.validity?.[1]?.format('YYYY-MM-DD') ?? null,
      artNum: values.artNum.trim() || null,
    };
    const send = (confirmMerge: boolean) =>
      viewerApi.edit({ ...body, ...(confirmMerge ? { confirmMerge } : {}) });
    try {
      let result: { folderDataId: number };
      try {
        result = await send(false);
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'SEF_07') throw error;
        const agreed = await modal.confirm({
          title: t('viewer.mergeTitle'),
          content: error.desc,
          okText: t('common.confirm'),
          cancelText: t('common.cancel'),
        });
        if (!agreed) return;
        result = await send(true);
      }
      notifySuccess(t('viewer.saved'));
      changed.current = () => false;
      await refresh();
      if (result.folderDataId !== file.id) onMerged(result.folderDataId);
      onDone();
    } catch (error) {
      showApiError(error);
    }
  };

  return { save, savingShown };
}
