import type { FileDetail } from '@dam/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, Space } from 'antd';
import { type MutableRefObject, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filesKeys } from '../../api/items';
import { notifySuccess } from '../../api/notify';
import { useModifyTags } from '../../api/tags';
import { fileNameProblem, nameProblemText } from '../../ui/format';
import { useMoveItems } from '../../ui/useMoveItems';
import { AddTagDialog } from '../tagging';
import { viewerApi } from './api';
import { type EditValues, initialOf, sent } from './editValues';
import { TagsByDimension } from './FileTags';
import { useEditSave } from './useEditSave';

/** SPEC §2 info panel, edit mode: name, validity, article number, tags, path and formats. */
export function EditForm({
  file,
  onDone,
  onCancel,
  changed,
  onMerged,
}: {
  file: FileDetail;
  onDone: () => void;
  /** Cancel: the viewer asks first when something changed (issue 39 item 2). */
  onCancel: () => void;
  /** Set to tell whether the form holds changes not saved. */
  changed: MutableRefObject<() => boolean>;
  onMerged: (id: number) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EditValues>();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: filesKeys.all });
  const { save, savingShown } = useEditSave({ file, changed, refresh, onDone, onMerged });
  const moving = useMoveItems(() => void refresh());
  const [tagging, setTagging] = useState(false);
  const modifyTags = useModifyTags();

  useEffect(() => {
    const initial = sent(initialOf(file));
    changed.current = () => sent(form.getFieldsValue()) !== initial;
    return () => {
      changed.current = () => false;
    };
  }, [changed, file, form]);

  const hide = async (format: string) => {
    await viewerApi.hideFormat(file.id, format);
    await refresh();
  };

  const formats = file.fileFormat?.split(',') ?? [];
  return (
    <Form<EditValues>
      form={form}
      layout="vertical"
      initialValues={initialOf(file)}
      onFinish={save}
      data-testid="edit-form"
    >
      <Form.Item
        name="name"
        label={t('viewer.name')}
        rules={[
          {
            validator: (_rule, value: string | undefined) => {
              const problem = fileNameProblem(value ?? '');
              return problem ? Promise.reject(new Error(nameProblemText(t, problem))) : Promise.resolve();
            },
          },
        ]}
      >
        <Input data-testid="edit-name" />
      </Form.Item>
      <Form.Item name="validity" label={t('viewer.validity')}>
        <DatePicker.RangePicker
          allowEmpty={[true, true]}
          style={{ width: '100%' }}
          data-testid="edit-validity"
        />
      </Form.Item>
      <Form.Item name="artNum" label={t('viewer.artNum')}>
        <Input />
      </Form.Item>
      <Form.Item label={t('viewer.tags')}>
        <Space orientation="vertical" size={4}>
          <TagsByDimension file={file} />
          <Button size="small" onClick={() => setTagging(true)} data-testid="edit-tags">
            {t('tagging.editTags')}
          </Button>
        </Space>
      </Form.Item>
      {tagging && (
        <AddTagDialog
          title={t('tagging.titleOne', { name: file.name })}
          initial={file.tagDTOList.map((tag) => tag.id)}
          artNums={file.artNum ? [file.artNum] : []}
          onConfirm={async (tagIdList) => {
            await modifyTags({ folderDataId: file.id, tagIdList, mode: 'replace' });
            notifySuccess(t('tagging.saved'));
          }}
          onClose={() => setTagging(false)}
        />
      )}
      {file.authList.includes('edit') && (
        <Form.Item label={t('viewer.path')}>
          <Space>
            <span data-testid="edit-path">{file.path}</span>
            <Button size="small" onClick={() => moving.move([{ id: file.id }])} data-testid="edit-move">
              {t('files.moveTo')}
            </Button>
          </Space>
        </Form.Item>
      )}
      {formats.length > 1 && (
        <Form.Item label={t('viewer.formats')}>
          <Space wrap>
            {formats.map((format) => (
              <Button
                key={format}
                size="small"
                onClick={() => void hide(format)}
                data-testid={`hide-${format}`}
              >
                {t('viewer.hideFormat', { format: format.toUpperCase() })}
              </Button>
            ))}
          </Space>
        </Form.Item>
      )}
      <Space>
        <Button type="primary" htmlType="submit" loading={savingShown} data-testid="edit-save">
          {t('viewer.save')}
        </Button>
        <Button onClick={onCancel} data-testid="edit-cancel">
          {t('viewer.cancelEdit')}
        </Button>
      </Space>
      {moving.dialog}
    </Form>
  );
}
