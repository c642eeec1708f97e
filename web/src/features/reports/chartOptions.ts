import type { ReportColumn, ReportMetric, ReportResult, ReportRow } from '@dam/contract';

/** ECharts options built from a report: pure data, so they are unit-tested without a canvas. */

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** The event figures drawn in the trend (bytes have their own scale and stay in the table). */
export const TREND_METRICS: ReportMetric[] = [
  'uploads',
  'downloads',
  'shareDownloads',
  'views',
  'shares',
  'shareVisits',
];

/** A calm palette: one colour per figure, the same in both charts. */
export const METRIC_COLORS: Record<ReportColumn, string> = {
  uploads: '#3b82f6',
  uploadBytes: '#6366f1',
  downloads: '#10b981',
  shareDownloads: '#14b8a6',
  views: '#f59e0b',
  shares: '#ec4899',
  shareVisits: '#8b5cf6',
  storageBytes: '#64748b',
};
const PIE_COLORS = ['#3b82f6', '#10b981', '#f59e0b', '#ec4899', '#8b5cf6', '#14b8a6', '#64748b'];

/** Bars of the breakdown at most; the table lists every row. */
export const BREAKDOWN_BARS = 12;

const MB = 1024 * 1024;
export const isBytes = (column: ReportColumn) => column === 'uploadBytes' || column === 'storageBytes';
/** A figure as charted: bytes in MB (two decimals), counts as they are. */
export const chartValue = (column: ReportColumn, value: number) =>
  isBytes(column) ? Math.round((value / MB) * 100) / 100 : value;

/** The name a row is shown with: department or person, or the translated file type. */
export function rowLabel(
  report: Pick<ReportResult, 'dimension'>,
  row: Pick<ReportRow, 'key' | 'label'>,
  t: Translate,
) {
  if (report.dimension === 'fileType') return t(`reports.fileType.${row.key}`);
  if (row.label) return row.label;
  return report.dimension === 'department' ? t('reports.noDepartment') : t('reports.unknownUser');
}

export const metricLabel = (column: ReportColumn, t: Translate) => t(`reports.metric.${column}`);

/** The trend: one line per event figure over the period's buckets; a figure can be hidden from the legend. */
export function trendOption(report: ReportResult, t: Translate) {
  const dense = report.series.length > 45;
  return {
    animationDuration: 300,
    tooltip: { trigger: 'axis' },
    legend: { top: 0, type: 'scroll', data: TREND_METRICS.map((m) => metricLabel(m, t)) },
    grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
    xAxis: {
      type: 'category',
      boundaryGap: false,
      data: report.series.map((p) => (report.bucket === 'month' ? p.bucket.slice(0, 7) : p.bucket.slice(5))),
    },
    yAxis: { type: 'value', minInterval: 1 },
    series: TREND_METRICS.map((metric) => ({
      name: metricLabel(metric, t),
      type: 'line',
      smooth: true,
      showSymbol: !dense,
      symbolSize: 5,
      lineStyle: { width: 2 },
      areaStyle: { opacity: metric === 'uploads' ? 0.12 : 0.04 },
      itemStyle: { color: METRIC_COLORS[metric] },
      data: report.series.map((p) => p[metric]),
    })),
  };
}

/**
 * The breakdown of one figure: a doughnut by file type, or the largest departments or people as
 * bars (largest on top). Rows with nothing to show are left out.
 */
export function breakdownOption(report: ReportResult, column: ReportColumn, t: Translate) {
  const rows = [...report.rows]
    .filter((row) => row[column] > 0)
    .sort((a, b) => b[column] - a[column])
    .slice(0, BREAKDOWN_BARS);
  const unit = isBytes(column) ? ' MB' : '';
  if (report.dimension === 'fileType') {
    return {
      animationDuration: 300,
      tooltip: { trigger: 'item', valueFormatter: (v: number) => `${v}${unit}` },
      legend: { bottom: 0, type: 'scroll' },
      color: PIE_COLORS,
      series: [
        {
          name: metricLabel(column, t),
          type: 'pie',
          radius: ['42%', '70%'],
          center: ['50%', '45%'],
          itemStyle: { borderRadius: 6, borderColor: '#fff', borderWidth: 2 },
          label: { formatter: '{b}\n{d}%' },
          data: rows.map((row) => ({
            name: rowLabel(report, row, t),
            value: chartValue(column, row[column]),
          })),
        },
      ],
    };
  }
  const shown = [...rows].reverse();
  return {
    animationDuration: 300,
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (v: number) => `${v}${unit}`,
    },
    grid: { left: 8, right: 40, top: 8, bottom: 8, containLabel: true },
    xAxis: { type: 'value', minInterval: isBytes(column) ? 0 : 1 },
    yAxis: {
      type: 'category',
      data: shown.map((row) => rowLabel(report, row, t)),
      axisLabel: { width: 120, overflow: 'truncate' },
    },
    series: [
      {
        name: metricLabel(column, t),
        type: 'bar',
        barMaxWidth: 22,
        itemStyle: { color: METRIC_COLORS[column], borderRadius: [0, 4, 4, 0] },
        label: { show: true, position: 'right' },
        data: shown.map((row) => ({ value: chartValue(column, row[column]), key: row.key })),
      },
    ],
  };
}
