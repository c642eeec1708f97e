import { type Item, ItemType } from '@dam/contract';
import { App, Button, Checkbox, Divider, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBusyAction } from '../../api/useBusyAction';
import { testId } from '../../ui/testId';
import { ArtNumDownloadDialog } from './ArtNumDownloadDialog';
import { ScalingChoice } from './DownloadChoices';
import { DownloadItemList } from './DownloadItemList';
import { MetadataChoice } from './MetadataChoice';
import { PresetSelect } from './PresetSelect';
import { usePresets } from './presetsApi';
import { DEFAULT_METADATA_OPTIONS, downloadRequest, type MetadataOptions } from './requests';
import { downloadItems } from './ticket';

const CONVERSIONS = ['jpg', 'png', 'psd'] as const;

/**
 * SPEC §2 download dialog: files grouped by name then format, select all; JPG/PNG/PSD for every
 * file when several are chosen; folders with all/JPG/PNG/PSD/AVI/MP4 (JPG and PNG on); equal scaling.
 */
export function DownloadDialog({ items, onClose }: { items: Item[]; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [chosen, setChosen] = useState<Record<number, string[]>>(() =>
    Object.fromEntries(
      items.map((item) => [
        item.id,
        item.type === ItemType.folder ? ['jpg', 'png'] : (item.fileFormat?.split(',') ?? []),
      ]),
    ),
  );
  const [forAll, setForAll] = useState<string[]>([]);
  const [scaling, setScaling] = useState(false);
  const [px, setPx] = useState<number | null>(1000);
  const [busy, run] = useBusyAction();
  const presets = usePresets();
  const [presetId, setPresetId] = useState<number | null>(null);
  const [metadata, setMetadata] = useState<MetadataOptions>(DEFAULT_METADATA_OPTIONS);
  const [byArtNum, setByArtNum] = useState(false);
  const files = items.filter((i) => i.type !== ItemType.folder);
  const allFormats = files.flatMap((f) =>
    (f.fileFormat?.split(',') ?? []).map((format) => `${f.id}:${format}`),
  );
  const allChecked =
    allFormats.length > 0 &&
    files.every((f) => (f.fileFormat?.split(',') ?? []).every((x) => chosen[f.id]?.includes(x)));

  const submit = async () => {
    const request = downloadRequest(items, chosen, forAll, scaling ? px : null, presetId, metadata);
    if (!request) {
      void message.warning(t('download.nothingSelected'));
      return;
    }
    await run(async () => {
      await downloadItems(request);
      onClose();
    });
  };

  return (
    <Modal
      open
      title={t('download.title')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('download.downloadAll')}
      cancelText={t('common.cancel')}
      okButtonProps={{
        loading: busy,
        ...testId('download-submit'),
      }}
      width={600}
      destroyOnHidden
    >
      {files.length > 0 && (
        <Checkbox
          checked={allChecked}
          onChange={(e) =>
            setChosen((current) => ({
              ...current,
              ...Object.fromEntries(
                files.map((f) => [f.id, e.target.checked ? (f.fileFormat?.split(',') ?? []) : []]),
              ),
            }))
          }
          data-testid="download-select-all"
        >
          {t('download.selectAll')}
        </Checkbox>
      )}
      <DownloadItemList
        items={items}
        chosen={chosen}
        onChoose={(itemId, formats) => setChosen((current) => ({ ...current, [itemId]: formats }))}
      />
      {items.length > 1 && (
        <>
          <Divider style={{ margin: '8px 0' }} />
          <Space>
            <Typography.Text>{t('download.formatsForAll')}</Typography.Text>
            <Checkbox.Group
              value={forAll}
              onChange={(values) => setForAll(values as string[])}
              options={CONVERSIONS.map((f) => ({ value: f, label: f.toUpperCase() }))}
            />
          </Space>
        </>
      )}
      <Divider style={{ margin: '8px 0' }} />
      <ScalingChoice
        scaling={scaling}
        onScaling={setScaling}
        px={px}
        onPx={setPx}
        presetChosen={Boolean(presetId)}
        testIds={{ scaling: 'download-scaling', px: 'download-px' }}
      />
      {(presets.data?.length ?? 0) > 0 && (
        <>
          <Divider style={{ margin: '8px 0' }} />
          <PresetSelect presets={presets.data ?? []} value={presetId} onChange={setPresetId} />
        </>
      )}
      <Divider style={{ margin: '8px 0' }} />
      <MetadataChoice
        value={metadata}
        onChange={setMetadata}
        preset={presets.data?.find((p) => p.id === presetId) ?? null}
      />
      <Divider style={{ margin: '8px 0' }} />
      <Button
        type="link"
        style={{ padding: 0 }}
        onClick={() => setByArtNum(true)}
        data-testid="open-art-num-download"
      >
        {t('artNumDownload.fromDialog')}
      </Button>
      {byArtNum && (
        <ArtNumDownloadDialog
          onClose={(started) => {
            setByArtNum(false);
            if (started) onClose();
          }}
        />
      )}
    </Modal>
  );
}
