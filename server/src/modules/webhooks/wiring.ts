import { parseNetworks } from '../../lib/safe-http';
import type { Platform } from '../../platform';
import { AccessRepository } from '../access/access.repository';
import { OpenChangesRepository } from '../open-api/changes/repository';
import { WebhooksRepository } from './repository';
import { WebhooksService } from './service';

/** The open API's webhooks (issue 15): subscriptions, deliveries and their jobs. */
export function wireWebhooks({ db, clock, config, jobs, secretBox, warn }: Platform): WebhooksService {
  return new WebhooksService({
    repo: new WebhooksRepository(db, {
      changes: (handle) => new OpenChangesRepository(handle),
      access: (handle) => new AccessRepository(handle),
    }),
    secretBox,
    clock,
    allowed: parseNetworks(config.WEBHOOK_ALLOWED_NETWORKS),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    // A delivery's job is written in the transaction that writes the delivery (issue 38).
    deliveryJobs: jobs
      ? {
          quick: (deliveries, handle) => jobs.enqueueWebhooks(deliveries, handle),
          now: (delivery, handle) => jobs.enqueueWebhookNow(delivery, handle),
        }
      : undefined,
    warn,
  });
}
