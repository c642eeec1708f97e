import type { Visibility } from '@dam/contract';
import type { Db } from '../../../db/database';

/** An access record as a download link's redemption checks it: the record, its user, its enterprise's call. */
export interface TicketHolderAccess {
  id: number;
  key_id: string;
  name: string;
  enterprise_id: string;
  status: number;
  deleted_at: Date | null;
  run_as_user_id: number;
  user_status: number;
  user_dept_id: number | null;
  user_dept_path: string | null;
  /** Whether the record's enterprise still allows the call that issued the link. */
  allowed: boolean;
}

export interface ItemRecheck {
  id: number;
  state: number;
  owner_id: number;
  visibility: Visibility;
  dept_path: string;
}

/** SQL of the open API's downloads and uploads that the downloads and uploads modules do not hold. */
export class OpenTransferRepository {
  constructor(private readonly db: Db) {}

  /** What a download link's files are now, to check them again when the link is fetched. */
  async itemsForRecheck(ids: number[]): Promise<ItemRecheck[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('items')
      .select(['id', 'state', 'owner_id', 'visibility', 'dept_path'])
      .where('id', 'in', ids)
      .execute();
  }

  /** The record holding a download ticket (deleted ones too: redemption says why it refuses). */
  async holderOf(accessId: number, callCode: string): Promise<TicketHolderAccess | undefined> {
    const row = await this.db
      .selectFrom('api_accesses as a')
      .innerJoin('users as u', 'u.id', 'a.run_as_user_id')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .select((eb) => [
        'a.id',
        'a.key_id',
        'a.name',
        'a.enterprise_id',
        'a.status',
        'a.deleted_at',
        'a.run_as_user_id',
        'u.status as user_status',
        'u.dept_id as user_dept_id',
        'd.path as user_dept_path',
        eb
          .exists(
            eb
              .selectFrom('api_enterprise_calls as c')
              .select('c.call_code')
              .whereRef('c.enterprise_id', '=', 'a.enterprise_id')
              .where('c.call_code', '=', callCode),
          )
          .as('allowed'),
      ])
      .where('a.id', '=', accessId)
      .executeTakeFirst();
    return row && { ...row, allowed: Boolean(row.allowed) };
  }

  /** Who made an upload record, and the file it became (null until it went live). */
  uploadOf(
    uploadId: number,
  ): Promise<{ user_id: number; status: number; item_id: number | null } | undefined> {
    return this.db
      .selectFrom('uploads')
      .select(['user_id', 'status', 'item_id'])
      .where('id', '=', uploadId)
      .executeTakeFirst();
  }
}
