import { type QueryValues, type ReportResult, urlWithQuery } from '@dam/contract';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../api/endpoints';
import {
  BREAKDOWN_BARS,
  breakdownOption,
  chartValue,
  rowLabel,
  TREND_METRICS,
  trendOption,
} from './chartOptions';
import { periodProblem, presetRange, suggestedBucket, toReportRequest } from './period';

const t = (key: string, values?: Record<string, unknown>) =>
  values ? `${key}:${JSON.stringify(values)}` : key;

const zero = {
  uploads: 0,
  uploadBytes: 0,
  downloads: 0,
  shareDownloads: 0,
  views: 0,
  shares: 0,
  shareVisits: 0,
};
function reportOf(partial: Partial<ReportResult>): ReportResult {
  return {
    startDate: '2026-01-05',
    endDate: '2026-01-07',
    dimension: 'department',
    bucket: 'day',
    timeZone: 'Asia/Shanghai',
    today: '2026-01-07',
    scope: null,
    totals: { ...zero, storageBytes: 0 },
    series: [],
    rows: [],
    truncated: false,
    storageAsOf: null,
    ...partial,
  };
}

describe('report period', () => {
  const today = dayjs('2026-03-15');
  it('offers presets ending today and a bucket that reads well', () => {
    const [from, to] = presetRange('last7', today);
    expect([from.format('YYYY-MM-DD'), to.format('YYYY-MM-DD')]).toEqual(['2026-03-09', '2026-03-15']);
    expect(presetRange('thisMonth', today)[0].format('YYYY-MM-DD')).toBe('2026-03-01');
    const year = presetRange('last12Months', today);
    expect(year[0].format('YYYY-MM-DD')).toBe('2025-03-16');
    expect(periodProblem(year)).toBeNull();
    expect(suggestedBucket(presetRange('last30', today))).toBe('day');
    expect(suggestedBucket(presetRange('last90', today))).toBe('week');
    expect(suggestedBucket(year)).toBe('month');
  });

  it('refuses a period longer than 366 days or reversed, as the server does', () => {
    expect(periodProblem([dayjs('2025-01-01'), dayjs('2026-01-01')])).toBeNull();
    expect(periodProblem([dayjs('2025-01-01'), dayjs('2026-01-02')])).toBe('tooLong');
    expect(periodProblem([dayjs('2026-01-02'), dayjs('2026-01-01')])).toBe('order');
  });

  it('asks for whole days, with the department drilled into, and exports the same', () => {
    const request = toReportRequest({
      range: [dayjs('2026-01-05'), dayjs('2026-01-07')],
      dimension: 'user',
      bucket: 'week',
      sortBy: 'views',
      dept: { id: 9, name: 'Design' },
    });
    expect(request).toEqual({
      startDate: '2026-01-05',
      endDate: '2026-01-07',
      dimension: 'user',
      bucket: 'week',
      sortBy: 'views',
      deptId: 9,
    });
    expect(urlWithQuery(endpoints.exportDataReport.path, request as QueryValues)).toBe(
      '/ske-api/v1_0/data-report/export?startDate=2026-01-05&endDate=2026-01-07&dimension=user&bucket=week&sortBy=views&deptId=9',
    );
  });
});

describe('report charts', () => {
  it('draws one line per event figure over the buckets', () => {
    const option = trendOption(
      reportOf({
        series: [
          { bucket: '2026-01-05', ...zero, uploads: 3, views: 1 },
          { bucket: '2026-01-06', ...zero, uploads: 1, shares: 2 },
        ],
      }),
      t,
    );
    expect(option.xAxis.data).toEqual(['01-05', '01-06']);
    expect(option.series.map((s) => s.name)).toEqual(TREND_METRICS.map((m) => `reports.metric.${m}`));
    expect(option.series[0]?.data).toEqual([3, 1]);
    expect(option.series.find((s) => s.name === 'reports.metric.shares')?.data).toEqual([0, 2]);
  });

  it('shows the largest groups of the chosen figure as bars, largest on top, in MB for bytes', () => {
    const rows = Array.from({ length: BREAKDOWN_BARS + 3 }, (_, i) => ({
      key: String(i + 1),
      label: `Dept ${i + 1}`,
      ...zero,
      uploads: i,
      storageBytes: (i + 1) * 1024 * 1024,
    }));
    const option = breakdownOption(reportOf({ rows }), 'uploads', t) as {
      yAxis: { data: string[] };
      series: { data: { value: number; key: string }[] }[];
    };
    // The group with no uploads is left out; at most BREAKDOWN_BARS bars.
    expect(option.yAxis.data).toHaveLength(BREAKDOWN_BARS);
    expect(option.yAxis.data.at(-1)).toBe(`Dept ${BREAKDOWN_BARS + 3}`);
    expect(option.series[0]?.data.at(-1)).toEqual({
      value: BREAKDOWN_BARS + 2,
      key: String(BREAKDOWN_BARS + 3),
    });
    const storage = breakdownOption(reportOf({ rows }), 'storageBytes', t) as typeof option;
    expect(storage.series[0]?.data.at(-1)?.value).toBe(BREAKDOWN_BARS + 3);
    expect(chartValue('uploadBytes', 1.5 * 1024 * 1024)).toBe(1.5);
  });

  it('shows file types as a doughnut with translated names', () => {
    const report = reportOf({
      dimension: 'fileType',
      rows: [
        { key: 'image', label: 'image', ...zero, uploads: 5, storageBytes: 0 },
        { key: 'video', label: 'video', ...zero, uploads: 2, storageBytes: 0 },
      ],
    });
    const option = breakdownOption(report, 'uploads', t) as { series: { type: string; data: unknown[] }[] };
    expect(option.series[0]?.type).toBe('pie');
    expect(option.series[0]?.data).toEqual([
      { name: 'reports.fileType.image', value: 5 },
      { name: 'reports.fileType.video', value: 2 },
    ]);
    expect(rowLabel({ dimension: 'department' }, { key: '0', label: '' }, t)).toBe('reports.noDepartment');
    expect(rowLabel({ dimension: 'user' }, { key: '0', label: '' }, t)).toBe('reports.unknownUser');
  });
});

describe('report strings', () => {
  it('names every figure, dimension, bucket, file type and preset in Chinese and English', async () => {
    const { REPORT_BUCKETS, REPORT_COLUMNS, REPORT_DIMENSIONS, REPORT_FILE_TYPES } = await import(
      '@dam/contract'
    );
    const { PERIOD_PRESETS } = await import('./period');
    const zh = (await import('../../i18n/zh')).default as unknown as {
      reports: Record<string, Record<string, string>>;
    };
    const en = (await import('../../i18n/en')).default as unknown as typeof zh;
    for (const strings of [zh.reports, en.reports]) {
      expect(Object.keys(strings.metric ?? {})).toEqual([...REPORT_COLUMNS]);
      expect(Object.keys(strings.dimension ?? {})).toEqual([...REPORT_DIMENSIONS]);
      expect(Object.keys(strings.bucket ?? {})).toEqual([...REPORT_BUCKETS]);
      expect(Object.keys(strings.fileType ?? {})).toEqual([...REPORT_FILE_TYPES]);
      expect(Object.keys(strings.preset ?? {})).toEqual(PERIOD_PRESETS);
    }
  });
});
