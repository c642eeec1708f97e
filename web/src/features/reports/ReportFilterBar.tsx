import { REPORT_BUCKETS, REPORT_DIMENSIONS, type ReportBucket, type ReportDimension } from '@dam/contract';
import { DatePicker, Segmented, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { PERIOD_PRESETS, type PeriodPreset, presetRange, type ReportForm } from './period';

interface ReportFilterBarProps {
  form: ReportForm;
  onChange: (form: ReportForm) => void;
  /** A period picked by hand or from a preset. */
  onRange: (range: [Dayjs, Dayjs]) => void;
  /** The server's business day, once known: the presets end on it. */
  serverToday: string | undefined;
}

/** The period, its presets, the dimension and the bucket of the data report. */
export function ReportFilterBar({ form, onChange, onRange, serverToday }: ReportFilterBarProps) {
  const { t } = useTranslation();
  return (
    <Space wrap>
      <DatePicker.RangePicker
        allowClear={false}
        value={form.range}
        onChange={(range) => {
          if (range?.[0] && range[1]) onRange([range[0], range[1]]);
        }}
        data-testid="report-range"
      />
      <Select<PeriodPreset | null>
        value={null}
        placeholder={t('reports.presets')}
        style={{ width: 150 }}
        onChange={(preset) =>
          preset && onRange(presetRange(preset, serverToday ? dayjs(serverToday) : dayjs()))
        }
        options={PERIOD_PRESETS.map((preset) => ({ value: preset, label: t(`reports.preset.${preset}`) }))}
        aria-label={t('reports.presets')}
        data-testid="report-preset"
      />
      <Segmented<ReportDimension>
        value={form.dimension}
        onChange={(dimension) => onChange({ ...form, dimension })}
        options={REPORT_DIMENSIONS.map((d) => ({ value: d, label: t(`reports.dimension.${d}`) }))}
        data-testid="report-dimension"
      />
      <Segmented<ReportBucket>
        value={form.bucket}
        onChange={(bucket) => onChange({ ...form, bucket })}
        options={REPORT_BUCKETS.map((b) => ({ value: b, label: t(`reports.bucket.${b}`) }))}
        data-testid="report-bucket"
      />
    </Space>
  );
}
