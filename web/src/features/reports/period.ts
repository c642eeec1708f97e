import {
  REPORT_PERIOD_MAX_DAYS,
  type ReportBucket,
  type ReportColumn,
  type ReportDimension,
  type ReportRequest,
  reportPeriodDays,
} from '@dam/contract';
import dayjs, { type Dayjs } from 'dayjs';

/** What the report screen asks for; `range` as picked (whole days). */
export interface ReportForm {
  range: [Dayjs, Dayjs];
  dimension: ReportDimension;
  bucket: ReportBucket;
  sortBy: ReportColumn;
  /** Drilled into this department (and those below it). */
  dept: { id: number; name: string } | null;
}

export type PeriodPreset = 'last7' | 'last30' | 'thisMonth' | 'last90' | 'last12Months';
export const PERIOD_PRESETS: PeriodPreset[] = ['last7', 'last30', 'thisMonth', 'last90', 'last12Months'];

/** The days of a preset, ending today (`today` for tests). */
export function presetRange(preset: PeriodPreset, today: Dayjs = dayjs()): [Dayjs, Dayjs] {
  const end = today.startOf('day');
  switch (preset) {
    case 'last7':
      return [end.subtract(6, 'day'), end];
    case 'last30':
      return [end.subtract(29, 'day'), end];
    case 'thisMonth':
      return [end.startOf('month'), end];
    case 'last90':
      return [end.subtract(89, 'day'), end];
    case 'last12Months':
      return [end.subtract(12, 'month').add(1, 'day'), end];
  }
}

/** The bucket that reads well for a period: days up to two months, weeks up to half a year, then months. */
export function suggestedBucket(range: [Dayjs, Dayjs]): ReportBucket {
  const days = periodDays(range);
  if (days <= 62) return 'day';
  if (days <= 183) return 'week';
  return 'month';
}

export const periodDays = ([from, to]: [Dayjs, Dayjs]): number =>
  reportPeriodDays(from.format('YYYY-MM-DD'), to.format('YYYY-MM-DD'));

/** Why a period cannot be asked for (the server says the same), or null. */
export function periodProblem(range: [Dayjs, Dayjs]): 'order' | 'tooLong' | null {
  if (range[1].isBefore(range[0], 'day')) return 'order';
  if (periodDays(range) > REPORT_PERIOD_MAX_DAYS) return 'tooLong';
  return null;
}

export function toReportRequest(form: ReportForm): ReportRequest {
  return {
    startDate: form.range[0].format('YYYY-MM-DD'),
    endDate: form.range[1].format('YYYY-MM-DD'),
    dimension: form.dimension,
    bucket: form.bucket,
    sortBy: form.sortBy,
    ...(form.dept ? { deptId: form.dept.id } : {}),
  };
}
