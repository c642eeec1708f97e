import { Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBusyAction } from '../../api/useBusyAction';
import { testId } from '../../ui/testId';
import { FormatsChoice, ScalingChoice } from './DownloadChoices';
import { MetadataChoice } from './MetadataChoice';
import { PresetSelect } from './PresetSelect';
import { usePresets } from './presetsApi';
import { collectionDownloadRequest, DEFAULT_METADATA_OPTIONS, type MetadataOptions } from './requests';
import { downloadCollection } from './ticket';

/**
 * Download a collection (issue 43): every item of it the caller may see, folders with their files,
 * with the download dialog's choices (formats, equal scaling, a preset, metadata). The server
 * resolves the items, so a collection of thousands needs nothing loaded here.
 */
export function CollectionDownloadDialog({
  collection,
  onClose,
}: {
  collection: { id: number; name: string };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const presets = usePresets();
  const [formats, setFormats] = useState<string[]>(['all']);
  const [scaling, setScaling] = useState(false);
  const [px, setPx] = useState<number | null>(1000);
  const [presetId, setPresetId] = useState<number | null>(null);
  const [metadata, setMetadata] = useState<MetadataOptions>(DEFAULT_METADATA_OPTIONS);
  const [busy, run] = useBusyAction();

  const submit = () =>
    run(async () => {
      await downloadCollection(
        collectionDownloadRequest(collection.id, formats, scaling ? px : null, presetId, metadata),
      );
      onClose();
    });

  return (
    <Modal
      open
      title={t('download.collectionTitle', { name: collection.name })}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('download.downloadAll')}
      cancelText={t('common.cancel')}
      okButtonProps={{
        loading: busy,
        disabled: formats.length === 0,
        ...testId('collection-download-submit'),
      }}
      width={560}
      destroyOnHidden
    >
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('download.collectionHint')}</Typography.Text>
        <FormatsChoice value={formats} onChange={setFormats} testId="collection-download-formats" />
        <ScalingChoice
          scaling={scaling}
          onScaling={setScaling}
          px={px}
          onPx={setPx}
          presetChosen={Boolean(presetId)}
        />
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
