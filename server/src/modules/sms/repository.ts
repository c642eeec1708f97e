import type { SmsPurpose } from '@dam/contract';
import type { Db } from '../../db/database';

/** SQL of SMS codes (migration 015). */
export class SmsCodesRepository {
  constructor(private readonly db: Db) {}

  /** When the live code of a number and purpose was sent, if there is one. */
  async sentAt(mobile: string, purpose: SmsPurpose, now: Date): Promise<Date | undefined> {
    const row = await this.db
      .selectFrom('sms_codes')
      .select('created_at')
      .where('mobile', '=', mobile)
      .where('purpose', '=', purpose)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.created_at;
  }

  /** Stores a new code for the number and purpose, replacing the last one (its tries start afresh). */
  async replace(code: {
    mobile: string;
    purpose: SmsPurpose;
    userId: number | null;
    codeHash: string;
    now: Date;
    expiresAt: Date;
  }): Promise<void> {
    const values = {
      user_id: code.userId,
      code_hash: code.codeHash,
      failed_attempts: 0,
      created_at: code.now,
      expires_at: code.expiresAt,
    };
    await this.db
      .insertInto('sms_codes')
      .values({ mobile: code.mobile, purpose: code.purpose, ...values })
      .onConflict((oc) => oc.columns(['mobile', 'purpose']).doUpdateSet(values))
      .execute();
  }

  async remove(mobile: string, purpose: SmsPurpose, codeHash: string): Promise<void> {
    await this.db
      .deleteFrom('sms_codes')
      .where('mobile', '=', mobile)
      .where('purpose', '=', purpose)
      .where('code_hash', '=', codeHash)
      .execute();
  }

  /**
   * Uses up the code if it is the live one, not burnt and (for a change of number) asked by
   * `userId`: one statement, so two tries at once cannot both succeed.
   */
  async consume(
    mobile: string,
    purpose: SmsPurpose,
    codeHash: string,
    userId: number | null,
    maxFailures: number,
    now: Date,
  ): Promise<boolean> {
    const row = await this.db
      .deleteFrom('sms_codes')
      .where('mobile', '=', mobile)
      .where('purpose', '=', purpose)
      .where('code_hash', '=', codeHash)
      .where('failed_attempts', '<', maxFailures)
      .where('expires_at', '>', now)
      .where((eb) => (userId === null ? eb('user_id', 'is', null) : eb('user_id', '=', userId)))
      .returning('mobile')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Counts a wrong try against the live code of the number and purpose. */
  async countFailure(mobile: string, purpose: SmsPurpose): Promise<void> {
    await this.db
      .updateTable('sms_codes')
      .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
      .where('mobile', '=', mobile)
      .where('purpose', '=', purpose)
      .execute();
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.deleteFrom('sms_codes').where('expires_at', '<=', now).execute();
  }
}
