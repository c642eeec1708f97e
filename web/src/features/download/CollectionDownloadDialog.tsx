import { MAX_SCALING_PX } from '@dam/contract';
import { Checkbox, InputNumber, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBusyAction } from '../../api/useBusyAction';
import { testId } from '../../ui/testId';
import { MetadataChoice } from './MetadataChoice';
import { PresetSelect } from './PresetSelect';
import { usePresets } from './presetsApi';
import { collectionDownloadRequest, DEFAULT_METADATA_OPTIONS, type MetadataOptions } from './requests';
import { downloadCollection } from './ticket';

const FORMATS = ['all', 'jpg', 'png', 'psd', 'tif', 'mp4'] as const;

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
        <Space wrap>
          <Typography.Text>{t('artNumDownload.formats')}</Typography.Text>
          <Checkbox.Group
            value={formats}
            onChange={(values) => {
              const next = values as string[];
              // "All" and single formats exclude each other: the last click wins.
              const added = next.find((f) => !formats.includes(f));
              setFormats(added === 'all' ? ['all'] : next.filter((f) => f !== 'all'));
            }}
            options={FORMATS.map((f) => ({
              value: f,
              label: f === 'all' ? t('download.all') : f.toUpperCase(),
            }))}
            data-testid="collection-download-formats"
          />
        </Space>
        <Space>
          <Checkbox
            checked={scaling && !presetId}
            disabled={Boolean(presetId)}
            onChange={(e) => setScaling(e.target.checked)}
          >
            {t('download.scaling')}
          </Checkbox>
          <InputNumber
            min={1}
            max={MAX_SCALING_PX}
            precision={0}
            value={px}
            onChange={(value) => setPx(value)}
            disabled={!scaling || Boolean(presetId)}
            placeholder={t('download.scalingPx')}
            aria-label={t('download.scalingPx')}
          />
          <Typography.Text>px</Typography.Text>
        </Space>
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
