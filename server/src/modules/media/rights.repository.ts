import { ApiAccessStatus, UploadStatus, UserStatus } from '@dam/contract';
import type { Db } from '../../db/database';
import { sourceKeyOf } from '../deletion-outbox/service';

/** The columns of a file item that decide who may see it (items/policy, shares' visitor rules). */
export interface MediaItemFacts {
  id: number;
  type: number;
  id_path: string;
  state: number;
  owner_id: number;
  visibility: 'shared' | 'private';
  dept_path: string;
  expire_start_date: string | null;
  expire_end_date: string | null;
}

/** What a stored object is: media of file items, a detail-page template's asset, or nothing known. */
export type MediaObject = { kind: 'files'; items: MediaItemFacts[] } | { kind: 'template-asset' } | null;

/** A person acting now: their id and department (for their roles and view scope). */
export interface MediaPerson {
  user_id: number;
  dept_id: number | null;
  dept_path: string | null;
}

/** SQL of the media endpoint's right checks. */
export class MediaRightsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The object behind a storage key: an original, or one of its renditions (thumbnail, preview,
   * video rendition, page images — `sourceKeyOf`), belongs to the item of its upload record.
   */
  async objectOf(key: string): Promise<MediaObject> {
    const items = await this.db
      .selectFrom('uploads')
      .innerJoin('items', 'items.id', 'uploads.item_id')
      .select([
        'items.id',
        'items.type',
        'items.id_path',
        'items.state',
        'items.owner_id',
        'items.visibility',
        'items.dept_path',
        'items.expire_start_date',
        'items.expire_end_date',
      ])
      .where('uploads.storage_key', '=', sourceKeyOf(key) ?? key)
      .where('uploads.status', '<>', UploadStatus.cancelled)
      .execute();
    if (items.length > 0) return { kind: 'files', items };
    const asset = await this.db
      .selectFrom('composite_assets')
      .select('id')
      .where('storage_key', '=', key)
      .executeTakeFirst();
    return asset ? { kind: 'template-asset' } : null;
  }

  /** The user an open API access record acts as, while the record is on and its user not deleted. */
  personOfAccess(accessId: number): Promise<MediaPerson | undefined> {
    return this.db
      .selectFrom('api_accesses')
      .innerJoin('users', 'users.id', 'api_accesses.run_as_user_id')
      .leftJoin('departments', 'departments.id', 'users.dept_id')
      .select(['users.id as user_id', 'users.dept_id', 'departments.path as dept_path'])
      .where('api_accesses.id', '=', accessId)
      .where('api_accesses.deleted_at', 'is', null)
      .where('api_accesses.status', '=', ApiAccessStatus.on)
      .where('users.status', '=', UserStatus.normal)
      .executeTakeFirst();
  }
}
