import { MAX_SCALING_PX } from '@dam/contract';
import { Checkbox, InputNumber, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** Formats offered by the downloads that name no items (article numbers, a collection). */
const FORMATS = ['all', 'jpg', 'png', 'psd', 'tif', 'mp4'] as const;

/** Which formats to take: "all", or some of them; the two exclude each other, the last click wins. */
export function FormatsChoice({
  value,
  onChange,
  testId,
}: {
  value: string[];
  onChange: (formats: string[]) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Space wrap>
      <Typography.Text>{t('artNumDownload.formats')}</Typography.Text>
      <Checkbox.Group
        value={value}
        onChange={(values) => {
          const next = values as string[];
          const added = next.find((f) => !value.includes(f));
          onChange(added === 'all' ? ['all'] : next.filter((f) => f !== 'all'));
        }}
        options={FORMATS.map((f) => ({ value: f, label: f === 'all' ? t('download.all') : f.toUpperCase() }))}
        data-testid={testId}
      />
    </Space>
  );
}

/** Equal scaling to a long side in pixels; a preset chosen takes its place (both disabled then). */
export function ScalingChoice({
  scaling,
  onScaling,
  px,
  onPx,
  presetChosen,
  testIds,
}: {
  scaling: boolean;
  onScaling: (on: boolean) => void;
  px: number | null;
  onPx: (px: number | null) => void;
  presetChosen: boolean;
  testIds?: { scaling: string; px: string };
}) {
  const { t } = useTranslation();
  return (
    <Space>
      <Checkbox
        checked={scaling && !presetChosen}
        disabled={presetChosen}
        onChange={(e) => onScaling(e.target.checked)}
        data-testid={testIds?.scaling}
      >
        {t('download.scaling')}
      </Checkbox>
      <InputNumber
        min={1}
        max={MAX_SCALING_PX}
        precision={0}
        value={px}
        onChange={(value) => onPx(value)}
        disabled={!scaling || presetChosen}
        placeholder={t('download.scalingPx')}
        aria-label={t('download.scalingPx')}
        data-testid={testIds?.px}
      />
      {/* Plain text, not an input addon: a disabled addon's grey fails contrast. */}
      <Typography.Text>px</Typography.Text>
    </Space>
  );
}
