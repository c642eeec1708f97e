import { declareJobs } from '../../../jobs/runtime';

/** Hourly: deletes change-journal entries older than OPEN_CHANGES_KEPT_DAYS (migration 023). */
export const ASSET_CHANGES_SWEEP_QUEUE = 'asset-changes-sweep';

export interface AssetChangesSweepJobs {
  /** Runs the change journal's retention sweep in this process, hourly. */
  workAssetChangesSweep(handler: () => Promise<unknown>): Promise<void>;
}

export const assetChangesSweepJobs = declareJobs<AssetChangesSweepJobs>({
  async ensure({ ensureQueue }) {
    await ensureQueue(ASSET_CHANGES_SWEEP_QUEUE, { retryLimit: 2, retryDelay: 300, expireInSeconds: 3600 });
  },
  api: ({ boss }) => ({
    async workAssetChangesSweep(handler) {
      await boss.work(ASSET_CHANGES_SWEEP_QUEUE, { pollingIntervalSeconds: 30 }, async () => {
        await handler();
      });
      await boss.schedule(ASSET_CHANGES_SWEEP_QUEUE, '37 * * * *', null, {
        singletonKey: 'asset-changes-sweep',
      });
    },
  }),
});
