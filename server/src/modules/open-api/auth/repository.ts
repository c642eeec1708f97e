import { sql } from 'kysely';
import type { Db } from '../../../db/database';

/** An access record as the key check reads it: the record, its enterprise and its user. */
export interface AccessForCheck {
  id: number;
  key_id: string;
  name: string;
  status: number;
  deleted_at: Date | null;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_valid_until: Date | null;
  enterprise_id: string;
  rate_per_minute: number;
  run_as_user_id: number;
  user_status: number;
  user_dept_id: number | null;
  user_dept_path: string | null;
}

/** SQL of the open API's key check: records, allowed calls, nonces, usage counters. */
export class OpenAuthRepository {
  constructor(private readonly db: Db) {}

  /** The record of a key id (deleted ones too: the check names why it refuses), or undefined. */
  findByKeyId(keyId: string): Promise<AccessForCheck | undefined> {
    return this.db
      .selectFrom('api_accesses as a')
      .innerJoin('api_enterprises as e', 'e.enterprise_id', 'a.enterprise_id')
      .innerJoin('users as u', 'u.id', 'a.run_as_user_id')
      .leftJoin('departments as d', 'd.id', 'u.dept_id')
      .select([
        'a.id',
        'a.key_id',
        'a.name',
        'a.status',
        'a.deleted_at',
        'a.secret_enc',
        'a.previous_secret_enc',
        'a.previous_valid_until',
        'a.enterprise_id',
        'e.rate_per_minute',
        'a.run_as_user_id',
        'u.status as user_status',
        'u.dept_id as user_dept_id',
        'd.path as user_dept_path',
      ])
      .where('a.key_id', '=', keyId)
      .executeTakeFirst();
  }

  async enterpriseAllows(enterpriseId: string, callCode: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('api_enterprise_calls')
      .select('call_code')
      .where('enterprise_id', '=', enterpriseId)
      .where('call_code', '=', callCode)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Keeps a request's nonce; false when the record already used it (a replay). */
  async useNonce(accessId: number, nonce: string, expiresAt: Date): Promise<boolean> {
    const row = await this.db
      .insertInto('api_nonces')
      .values({ access_id: accessId, nonce, expires_at: expiresAt })
      .onConflict((oc) => oc.columns(['access_id', 'nonce']).doNothing())
      .returning('nonce')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Drops the nonces whose timestamps can no longer be accepted anyway. */
  async sweepNonces(now: Date): Promise<void> {
    await this.db.deleteFrom('api_nonces').where('expires_at', '<', now).execute();
  }

  /** Counts one call (and whether it failed) of a record on a UTC day, atomically. */
  async countCall(accessId: number, day: string, callCode: string, failed: boolean): Promise<void> {
    const failures = failed ? 1 : 0;
    await this.db
      .insertInto('api_usage_daily')
      .values({ access_id: accessId, day, call_code: callCode, calls: 1, failures })
      .onConflict((oc) =>
        oc.columns(['access_id', 'day', 'call_code']).doUpdateSet({
          calls: sql`api_usage_daily.calls + 1`,
          failures: sql`api_usage_daily.failures + ${failures}`,
        }),
      )
      .execute();
  }

  /** Notes the record's last use, at most once a minute (fewer writes on a busy key). */
  async touchLastUsed(accessId: number, now: Date, ip: string | null): Promise<void> {
    const minuteAgo = new Date(now.getTime() - 60_000);
    await this.db
      .updateTable('api_accesses')
      .set({ last_used_at: now, last_used_ip: ip })
      .where('id', '=', accessId)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', minuteAgo)]))
      .execute();
  }
}
