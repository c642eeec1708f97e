import type { DownloadPreset } from '@dam/contract';
import { Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** What a preset does, in one line: "JPG · 800 px · {artNum}_{index}.jpg". */
export function presetSummary(preset: DownloadPreset, originalSize: string): string {
  return [
    preset.format.toUpperCase(),
    preset.longSidePx ? `${preset.longSidePx} px` : originalSize,
    preset.fileNameTemplate,
  ].join(' · ');
}

/** Chooses a download preset, or none (files as they are). Shown only when presets exist. */
export function PresetSelect({
  presets,
  value,
  onChange,
}: {
  presets: DownloadPreset[];
  value: number | null;
  onChange: (id: number | null) => void;
}) {
  const { t } = useTranslation();
  if (presets.length === 0) return null;
  const chosen = presets.find((p) => p.id === value) ?? null;
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }}>
      <Space wrap>
        <Typography.Text>{t('presets.useInDownload')}</Typography.Text>
        <Select
          style={{ minWidth: 240 }}
          value={value ?? 0}
          onChange={(id) => onChange(id === 0 ? null : id)}
          options={[
            { value: 0, label: t('presets.none') },
            ...presets.map((p) => ({ value: p.id, label: p.name })),
          ]}
          data-testid="download-preset"
          aria-label={t('presets.useInDownload')}
          popupMatchSelectWidth={false}
        />
      </Space>
      {chosen && (
        <Typography.Text type="secondary" data-testid="download-preset-summary">
          {presetSummary(chosen, t('presets.originalSize'))}
        </Typography.Text>
      )}
    </Space>
  );
}
