import type { Db } from '../../db/database';

/** app_settings key of a paused queue (jobs/queue-pause.ts); its value says who paused it and when. */
const PAUSED_PREFIX = 'job-queue-paused:';

/** SQL of the queues' pause flags, which every process reads (jobs/queue-pause.ts). */
export class QueuePausesRepository {
  constructor(private readonly db: Db) {}

  async pausedQueues(): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('app_settings')
      .select('key')
      .where('key', 'like', `${PAUSED_PREFIX}%`)
      .execute();
    return new Set(rows.map((row) => row.key.slice(PAUSED_PREFIX.length)));
  }

  /** Answers whether the flag changed (pausing a paused queue changes nothing). */
  async setPaused(queue: string, paused: boolean, by: { userId: number; at: Date }): Promise<boolean> {
    const key = `${PAUSED_PREFIX}${queue}`;
    if (!paused) {
      const result = await this.db.deleteFrom('app_settings').where('key', '=', key).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    }
    const result = await this.db
      .insertInto('app_settings')
      .values({ key, value: JSON.stringify({ userId: by.userId, at: by.at.toISOString() }) })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}
