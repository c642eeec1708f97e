import { DOWNLOAD_METADATA, type DownloadMetadata, type DownloadPreset } from '@dam/contract';
import { Checkbox, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MetadataOptions } from './requests';

const LABEL = {
  embed: 'download.metadataEmbed',
  strip: 'download.metadataStrip',
  keep: 'download.metadataKeep',
} as const;

/**
 * What a download does with embedded metadata (issue 42). A preset that strips wins over the
 * choice here (the server strips when either asks), so the dialog says so instead of pretending.
 * With the platform's metadata, formats that cannot carry it may get `.xmp` sidecars.
 */
export function MetadataChoice({
  value,
  onChange,
  preset,
}: {
  value: MetadataOptions;
  onChange: (value: MetadataOptions) => void;
  preset: DownloadPreset | null;
}) {
  const { t } = useTranslation();
  const presetStrips = preset?.metadata === 'strip';
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }}>
      <Space wrap>
        <Typography.Text>{t('download.metadata')}</Typography.Text>
        <Radio.Group
          size="small"
          optionType="button"
          value={presetStrips ? 'strip' : value.metadata}
          disabled={presetStrips}
          onChange={(e) => onChange({ ...value, metadata: e.target.value as DownloadMetadata })}
          options={DOWNLOAD_METADATA.map((choice) => ({ value: choice, label: t(LABEL[choice]) }))}
          data-testid="download-metadata"
        />
      </Space>
      <Typography.Text type={presetStrips ? 'warning' : 'secondary'} data-testid="download-metadata-hint">
        {presetStrips ? t('download.presetStrips') : t('download.metadataHint')}
      </Typography.Text>
      {!presetStrips && value.metadata === 'embed' && (
        <Checkbox
          checked={value.xmpSidecars}
          onChange={(e) => onChange({ ...value, xmpSidecars: e.target.checked })}
          data-testid="download-xmp-sidecars"
        >
          {t('download.xmpSidecars')}
        </Checkbox>
      )}
    </Space>
  );
}
