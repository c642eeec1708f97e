import type { Job } from 'pg-boss';
import { BACKSTOP_POLL_SECONDS, declareJobs } from '../../jobs/runtime';

/** One job per dry run or apply of an import (migration 020). */
export const IMPORT_QUEUE = 'import';

type ImportAction = 'check' | 'apply';

export interface ImportJobs {
  /** Queues the dry run (`check`) or the apply of an import. */
  enqueueImport(importId: number, action: ImportAction): Promise<void>;
  /** Runs import jobs in this process, one at a time. */
  workImports(handler: (importId: number, action: ImportAction) => Promise<void>): Promise<void>;
  /** Resolves when the import job of an import and action ended (tests). */
  importDone(importId: number, action: ImportAction): Promise<void>;
}

export const importJobs = declareJobs<ImportJobs>({
  async ensure({ ensureQueue }) {
    // An import job records its own failure on the import (handlers never throw); an hour covers 100 000 rows.
    await ensureQueue(IMPORT_QUEUE, { retryLimit: 2, retryDelay: 5, expireInSeconds: 3600 });
  },
  spied: [IMPORT_QUEUE],
  api: ({ boss, thenFetchAgain }) => ({
    async enqueueImport(importId, action) {
      await boss.send(IMPORT_QUEUE, { importId, action }, { singletonKey: `import-${importId}-${action}` });
    },
    async workImports(handler) {
      await boss.work(
        IMPORT_QUEUE,
        { pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: BACKSTOP_POLL_SECONDS },
        thenFetchAgain(IMPORT_QUEUE, async ([job]: Job<{ importId: number; action: ImportAction }>[]) => {
          if (job) await handler(job.data.importId, job.data.action);
        }),
      );
    },
    async importDone(importId, action) {
      await boss
        .getSpy<{ importId: number; action: string }>(IMPORT_QUEUE)
        .waitForJob((data) => data.importId === importId && data.action === action, 'completed');
    },
  }),
});
