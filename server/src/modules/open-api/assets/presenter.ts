import type { OpenAssetSummary } from '@dam/contract';
import { isExpired } from '../../items/presenter';
import type { AssetRow } from './repository';

/** The visible formats of a file, in the order they first arrived (the item's own list). */
export const formatsOfRow = (row: Pick<AssetRow, 'file_formats'>): string[] =>
  row.file_formats ? row.file_formats.split(',') : [];

/** An asset in a list: `today` is the business day (BUSINESS_TIME_ZONE) validity is judged on. */
export function presentSummary(row: AssetRow, today: string): OpenAssetSummary {
  return {
    id: Number(row.id),
    name: row.name,
    artNum: row.art_num,
    folderId: row.parent_id === null ? null : Number(row.parent_id),
    folderPath: row.folder_path,
    formats: formatsOfRow(row),
    validFrom: row.expire_start_date,
    validTo: row.expire_end_date,
    expired: isExpired(row.expire_start_date, row.expire_end_date, today),
    reviewState: row.review_state,
    updatedAt: row.updated_at.toISOString(),
  };
}
