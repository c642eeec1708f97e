import {
  FunctionCode,
  type Language,
  type ParsedReportRequest,
  REPORT_PERIOD_MAX_DAYS,
  REPORT_ROWS_MAX,
  type ReportBucket,
  type ReportFigures,
  type ReportPoint,
  type ReportResult,
  type ReportRow,
  reportPeriodDays,
} from '@dam/contract';
import { AppError, invalidField } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { type AuthContext, administrationReach, requireAnyCode, withinReach } from '../access/access';
import { localTime } from '../logs/workbook';
import type { FigureRow, ReportScope, ReportsRepository, StorageRow } from './repository';
import { writeReportWorkbook } from './workbook';

const ZERO: ReportFigures = {
  uploads: 0,
  uploadBytes: 0,
  downloads: 0,
  shareDownloads: 0,
  views: 0,
  shares: 0,
  shareVisits: 0,
};

const figuresOf = (row: FigureRow): ReportFigures => ({
  uploads: Number(row.uploads),
  uploadBytes: Number(row.upload_bytes),
  downloads: Number(row.downloads),
  shareDownloads: Number(row.share_downloads),
  views: Number(row.views),
  shares: Number(row.shares),
  shareVisits: Number(row.share_visits),
});

/** `YYYY-MM-DD` plus `days` days. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The local day (`YYYY-MM-DD`) of an instant in a time zone. */
export function localDay(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}

/** The first day of the bucket holding `day` (weeks start on Monday, as PostgreSQL's date_trunc). */
export function bucketStart(day: string, bucket: ReportBucket): string {
  if (bucket === 'day') return day;
  if (bucket === 'month') return `${day.slice(0, 7)}-01`;
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** Every bucket from the one holding `startDate` to the one holding `endDate`. */
export function bucketsOf(startDate: string, endDate: string, bucket: ReportBucket): string[] {
  const buckets: string[] = [];
  let current = bucketStart(startDate, bucket);
  while (current <= endDate) {
    buckets.push(current);
    if (bucket === 'day') current = addDays(current, 1);
    else if (bucket === 'week') current = addDays(current, 7);
    else {
      const [y, m] = current.split('-').map(Number) as [number, number];
      current = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
    }
  }
  return buckets;
}

/**
 * Data reports (SPEC §2 /manage/data-table, §6 code 6): what the people of the caller's reach did
 * over a period, from the operation log (through the daily rollup), and the storage they hold.
 * Administration stays inside the caller's department subtree (`administrationReach`).
 */
export class ReportsService {
  constructor(
    private readonly repo: ReportsRepository,
    private readonly clock: Clock,
    private readonly timeZone: string,
  ) {}

  /** The rollup job: whole past days into report_daily, and the storage figures. */
  rollUp(): Promise<{ from: string | null; days: number }> {
    const now = this.clock.now();
    return this.repo.rollUp(localDay(now, this.timeZone), this.timeZone, now);
  }

  private async scopeOf(
    auth: AuthContext,
    deptId: number | undefined,
  ): Promise<{ scope: ReportScope; dept: { id: number; name: string } | null }> {
    requireAnyCode(auth, FunctionCode.data);
    const reach = administrationReach(auth);
    if (reach.kind === 'none') throw new AppError('SE_502');
    if (deptId !== undefined) {
      const dept = await this.repo.department(deptId);
      // A department outside the reach is answered like an unknown one.
      if (!dept || !withinReach(reach, dept.path)) throw new AppError('SED_06');
      return { scope: { kind: 'subtree', pathPrefix: dept.path }, dept: { id: dept.id, name: dept.name } };
    }
    if (reach.kind === 'all') return { scope: { kind: 'all' }, dept: null };
    const own = auth.deptId === null ? undefined : await this.repo.department(auth.deptId);
    return {
      scope: { kind: 'subtree', pathPrefix: reach.pathPrefix },
      dept: own ? { id: own.id, name: own.name } : null,
    };
  }

  /** The figures of a period; a period in the wrong order or too long is SE_400 and reads nothing. */
  async report(auth: AuthContext, request: ParsedReportRequest): Promise<ReportResult> {
    const { startDate, endDate } = request;
    if (endDate < startDate) throw invalidField('endDate', 'periodOrder');
    if (reportPeriodDays(startDate, endDate) > REPORT_PERIOD_MAX_DAYS)
      throw invalidField('endDate', 'reportPeriod', { max: REPORT_PERIOD_MAX_DAYS });
    const { scope, dept } = await this.scopeOf(auth, request.deptId);
    const state = await this.repo.state();
    const rolledUntil = state && state.timeZone === this.timeZone ? state.rolledUntil : null;
    const [rows, storage] = await Promise.all([
      this.repo.report({
        startDate,
        endExclusive: addDays(endDate, 1),
        timeZone: this.timeZone,
        rolledUntil,
        scope,
        dimension: request.dimension,
        bucket: request.bucket,
      }),
      this.repo.storage(scope, request.dimension, state?.storageAt ?? null),
    ]);

    const byBucket = new Map<string, ReportFigures>();
    const byKey = new Map<string, ReportFigures>();
    for (const row of rows) {
      if (row.bucket !== null) byBucket.set(row.bucket, figuresOf(row));
      else if (row.key !== null) byKey.set(row.key, figuresOf(row));
    }
    const storageByKey = new Map<string, StorageRow>(storage.map((s) => [s.key ?? '0', s]));
    const series: ReportPoint[] = bucketsOf(startDate, endDate, request.bucket).map((bucket) => ({
      bucket,
      ...(byBucket.get(bucket) ?? ZERO),
    }));
    const totals = { ...ZERO, storageBytes: 0 };
    for (const point of series)
      for (const key of Object.keys(ZERO) as (keyof ReportFigures)[]) totals[key] += point[key];
    for (const s of storage) totals.storageBytes += Number(s.bytes);

    const keys = [...new Set([...byKey.keys(), ...storageByKey.keys()])];
    const labels = await this.labels(request.dimension, keys);
    const all: ReportRow[] = keys.map((key) => ({
      key,
      label: labels.get(key) ?? '',
      ...(byKey.get(key) ?? ZERO),
      storageBytes: Number(storageByKey.get(key)?.bytes ?? 0),
    }));
    const sortBy = request.sortBy;
    all.sort((a, b) => b[sortBy] - a[sortBy] || a.label.localeCompare(b.label) || a.key.localeCompare(b.key));
    return {
      startDate,
      endDate,
      dimension: request.dimension,
      bucket: request.bucket,
      timeZone: this.timeZone,
      today: localDay(this.clock.now(), this.timeZone),
      scope: dept ? { deptId: dept.id, name: dept.name } : null,
      totals,
      series,
      rows: all.slice(0, REPORT_ROWS_MAX),
      truncated: all.length > REPORT_ROWS_MAX,
      storageAsOf: state?.storageAt?.toISOString() ?? null,
    };
  }

  private async labels(
    dimension: ParsedReportRequest['dimension'],
    keys: string[],
  ): Promise<Map<string, string>> {
    if (dimension === 'fileType') return new Map(keys.map((k) => [k, k]));
    const ids = keys.map(Number).filter((id) => id > 0);
    const names =
      dimension === 'department' ? await this.repo.departmentNames(ids) : await this.repo.userNames(ids);
    return new Map(keys.map((k) => [k, names.get(Number(k)) ?? (k === '0' ? '' : `#${k}`)]));
  }

  /** The report as an .xlsx workbook, in Chinese for zh and English otherwise. */
  async export(
    auth: AuthContext,
    request: ParsedReportRequest,
    lang: Language,
  ): Promise<{ workbook: Buffer; fileName: string; result: ReportResult }> {
    const result = await this.report(auth, request);
    const language = lang === 'zh' ? 'zh' : 'en';
    const stamp = `${result.startDate}_${result.endDate}`.replace(/-/g, '');
    const workbook = await writeReportWorkbook(result, {
      language,
      exportedAt: localTime(this.clock.now(), this.timeZone),
      storageAsOf: result.storageAsOf ? localTime(new Date(result.storageAsOf), this.timeZone) : null,
      rowsMax: REPORT_ROWS_MAX,
    });
    const fileName = language === 'zh' ? `数据报表-${stamp}.xlsx` : `data-report-${stamp}.xlsx`;
    return { workbook, fileName, result };
  }
}
