import { declareJobs } from '../../jobs/runtime';

/** Scheduled backups (BACKUP_SCHEDULE): one job per occurrence, never retried. */
export const BACKUP_QUEUE = 'backup';

export interface BackupJobs {
  /**
   * Runs scheduled backups in this process, on `schedule` (cron in `tz`); without a schedule the
   * one a previous configuration left is removed.
   */
  workBackups(schedule: { cron: string; tz: string } | null, handler: () => Promise<void>): Promise<void>;
}

export const backupJobs = declareJobs<BackupJobs>({
  // The queue is made by the process that works backups, when a schedule is set.
  async ensure() {},
  api: ({ boss, ensureQueue }) => ({
    async workBackups(schedule, handler) {
      if (!schedule) {
        if (await boss.getQueue(BACKUP_QUEUE)) await boss.unschedule(BACKUP_QUEUE);
        return;
      }
      // A backup takes as long as the data: a lease of a day, and a failed run waits for the next.
      await ensureQueue(BACKUP_QUEUE, { retryLimit: 0, expireInSeconds: 24 * 3600 });
      await boss.work(BACKUP_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
        await handler();
      });
      await boss.schedule(BACKUP_QUEUE, schedule.cron, null, { tz: schedule.tz });
    },
  }),
});
