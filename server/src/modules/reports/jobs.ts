import { declareJobs } from '../../jobs/runtime';

/** Hourly: rolls finished days of the operation log up for data reports (migration 019). */
export const REPORT_ROLLUP_QUEUE = 'report-rollup';

export interface ReportRollupJobs {
  /** Runs the report rollup in this process: hourly, and once soon after start. */
  workReportRollup(handler: () => Promise<unknown>): Promise<void>;
}

export const reportRollupJobs = declareJobs<ReportRollupJobs>({
  async ensure({ ensureQueue }) {
    await ensureQueue(REPORT_ROLLUP_QUEUE, { retryLimit: 2, retryDelay: 300, expireInSeconds: 3600 });
  },
  api: ({ boss }) => ({
    async workReportRollup(handler) {
      await boss.work(REPORT_ROLLUP_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
        await handler();
      });
      await boss.schedule(REPORT_ROLLUP_QUEUE, '7 * * * *', null, { singletonKey: 'report-rollup' });
      await boss.send(REPORT_ROLLUP_QUEUE, null, {
        singletonKey: 'report-rollup-start',
        singletonSeconds: 600,
      });
    },
  }),
});
