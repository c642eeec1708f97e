import { endpoints, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { WebhooksService } from './service';

/**
 * Webhooks of open API access records (issue 15), in the main API for signed-in callers; the
 * service checks function code 7 and that the record is within the caller's reach.
 */
export const webhooksRoutes: FastifyPluginAsync<{
  webhooks: WebhooksService;
  oplog: OperationRecorder;
}> = async (app, { webhooks, oplog }) => {
  route(app, endpoints.webhookList, async (request) =>
    webhooks.list(authOf(request), request.query.accessId),
  );
  route(app, endpoints.saveWebhook, async (request) => {
    const saved = await webhooks.save(authOf(request), request.body);
    const { accessId, url, events, status } = request.body;
    await oplog.record(request, OperationCode.saveWebhook, {
      newValue: url,
      details: {
        webhookId: saved.id,
        apiAccessId: accessId,
        values: { url, events, status },
        created: saved.secret !== null,
      },
    });
    return saved;
  });
  route(app, endpoints.deleteWebhook, async (request) => {
    const removed = await webhooks.remove(authOf(request), request.body.id);
    // One already gone was deleted by someone else, whose entry says so.
    if (removed)
      await oplog.record(request, OperationCode.deleteWebhook, {
        newValue: removed.url,
        details: { webhookId: request.body.id, apiAccessId: removed.accessId, values: { url: removed.url } },
      });
    return null;
  });
  route(app, endpoints.testWebhook, async (request) => webhooks.test(authOf(request), request.body.id));
  route(app, endpoints.webhookDeliveries, async (request) =>
    webhooks.deliveries(authOf(request), request.query),
  );
  route(app, endpoints.redeliverWebhook, async (request) =>
    webhooks.redeliver(authOf(request), request.body.deliveryId),
  );
};
