import { MAX_ART_NUMS_PER_DOWNLOAD, parseArtNums } from '@dam/contract';
import { App, Input, Modal, Space, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBusyAction } from '../../api/useBusyAction';
import { testId } from '../../ui/testId';
import { useFocusOnOpen } from '../../ui/useFocusOnOpen';
import { FormatsChoice } from './DownloadChoices';
import { MetadataChoice } from './MetadataChoice';
import { PresetSelect } from './PresetSelect';
import { usePresets } from './presetsApi';
import { artNumDownloadRequest, DEFAULT_METADATA_OPTIONS, type MetadataOptions } from './requests';
import { downloadByArtNums } from './ticket';

/**
 * Download by article numbers (issue 5): paste a list (one per line, or separated by spaces or
 * commas), get one zip with a folder per article number and a list of those that matched nothing.
 */
export function ArtNumDownloadDialog({ onClose }: { onClose: (started: boolean) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const presets = usePresets();
  const [text, setText] = useState('');
  const numbersField = useFocusOnOpen<TextAreaRef>();
  const [formats, setFormats] = useState<string[]>(['all']);
  const [presetId, setPresetId] = useState<number | null>(null);
  const [metadata, setMetadata] = useState<MetadataOptions>(DEFAULT_METADATA_OPTIONS);
  const [busy, run] = useBusyAction();
  const count = useMemo(() => parseArtNums(text).length, [text]);
  const tooMany = count > MAX_ART_NUMS_PER_DOWNLOAD;

  const submit = async () => {
    const request = artNumDownloadRequest(text, formats, presetId, metadata);
    if (!request) {
      void message.warning(t('artNumDownload.empty'));
      return;
    }
    if (tooMany || formats.length === 0) return;
    await run(async () => {
      await downloadByArtNums(request);
      onClose(true);
    });
  };

  return (
    <Modal
      open
      title={t('artNumDownload.title')}
      onCancel={() => onClose(false)}
      onOk={() => void submit()}
      okText={t('artNumDownload.submit')}
      cancelText={t('common.cancel')}
      okButtonProps={{
        loading: busy,
        disabled: tooMany || formats.length === 0,
        ...testId('art-num-download-submit'),
      }}
      width={560}
      destroyOnHidden
      afterOpenChange={numbersField.afterOpenChange}
    >
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('artNumDownload.hint')}</Typography.Text>
        <Input.TextArea
          value={text}
          onChange={(e) => setText(e.target.value)}
          autoSize={{ minRows: 6, maxRows: 12 }}
          placeholder={t('artNumDownload.placeholder')}
          data-testid="art-num-input"
          ref={numbersField.ref}
          autoFocus
        />
        <Typography.Text type={tooMany ? 'danger' : 'secondary'} data-testid="art-num-count">
          {tooMany
            ? t('artNumDownload.tooMany', { max: MAX_ART_NUMS_PER_DOWNLOAD })
            : t('artNumDownload.count', { count })}
        </Typography.Text>
        <FormatsChoice value={formats} onChange={setFormats} testId="art-num-formats" />
        <PresetSelect presets={presets.data ?? []} value={presetId} onChange={setPresetId} />
        <MetadataChoice
          value={metadata}
          onChange={setMetadata}
          preset={presets.data?.find((p) => p.id === presetId) ?? null}
        />
      </Space>
    </Modal>
  );
}
