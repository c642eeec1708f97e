import { IMPORT_BUSY_STATUSES, type ImportDetail } from '@dam/contract';

/** Whether the import's job is at work (the page polls meanwhile). */
export const isBusy = (detail: Pick<ImportDetail, 'status'> | undefined): boolean =>
  detail !== undefined && IMPORT_BUSY_STATUSES.includes(detail.status);

/** Progress of an import in percent: rows the job has gone through; whole once checked or applied. */
export function progressPercent(detail: Pick<ImportDetail, 'processed' | 'total' | 'status'>): number {
  if (detail.status === 'applied' || detail.status === 'checked') return 100;
  if (detail.total === 0) return 0;
  return Math.min(100, Math.floor((detail.processed / detail.total) * 100));
}
