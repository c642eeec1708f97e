import { z } from 'zod';
import {
  apiAccessDetailSchema,
  apiAccessIdSchema,
  apiAccessListQuerySchema,
  apiAccessPageSchema,
  apiEnterpriseSchema,
  enterpriseCallsRequestSchema,
  enterpriseIdRequestSchema,
  getEnterpriseRequestSchema,
  issuedApiKeySchema,
  openCallInfoSchema,
  rotateApiSecretRequestSchema,
  saveApiAccessRequestSchema,
  savedWebhookSchema,
  saveEnterpriseRequestSchema,
  saveWebhookRequestSchema,
  webhookDeliveriesQuerySchema,
  webhookDeliveryIdSchema,
  webhookDeliveryPageSchema,
  webhookIdSchema,
  webhookListQuerySchema,
  webhookSchema,
  webhookTestResultSchema,
} from '../open-api-schemas';
import { defineEndpoint } from './define';
import { routes } from './routes';

/**
 * Open API access management (SPEC §2 /manage/api, §6 code 7, §7 /open/*): signed in, code 7,
 * inside the caller's administration reach. SPEC names the calls; request and result shapes are
 * ours (docs/decisions.md, "Open API (issue 15)").
 */
export const openAdminEndpoints = {
  /** SPEC getAllApi: every open call an enterprise may be allowed. */
  openCalls: defineEndpoint({ ...routes.openCalls, reply: 'json', result: z.array(openCallInfoSchema) }),
  /** SPEC getAllUserApi: the access records, paged. */
  apiAccessList: defineEndpoint({
    ...routes.apiAccessList,
    query: apiAccessListQuerySchema,
    reply: 'json',
    result: apiAccessPageSchema,
  }),
  /** SPEC getUserApiById. */
  apiAccessDetail: defineEndpoint({
    ...routes.apiAccessDetail,
    body: apiAccessIdSchema,
    reply: 'json',
    result: apiAccessDetailSchema,
  }),
  /** SPEC addOpenApi: create (secret answered once) or edit. */
  saveApiAccess: defineEndpoint({
    ...routes.saveApiAccess,
    body: saveApiAccessRequestSchema,
    reply: 'json',
    result: issuedApiKeySchema,
  }),
  /** SPEC deleteAPIById: the key stops at once; deleting one already gone succeeds. */
  deleteApiAccess: defineEndpoint({
    ...routes.deleteApiAccess,
    body: apiAccessIdSchema,
    reply: 'json',
    result: z.null(),
  }),
  /** Extension: a new secret, answered once. */
  rotateApiSecret: defineEndpoint({
    ...routes.rotateApiSecret,
    body: rotateApiSecretRequestSchema,
    reply: 'json',
    result: issuedApiKeySchema,
  }),
  /** SPEC getEnterpriseId: one enterprise or all. */
  apiEnterprises: defineEndpoint({
    ...routes.apiEnterprises,
    body: getEnterpriseRequestSchema,
    reply: 'json',
    result: z.array(apiEnterpriseSchema),
  }),
  /** SPEC updateEnterpriseId: create or edit. */
  saveApiEnterprise: defineEndpoint({
    ...routes.saveApiEnterprise,
    body: saveEnterpriseRequestSchema,
    reply: 'json',
    result: apiEnterpriseSchema,
  }),
  /** SPEC deleteEnterpriseId. */
  deleteApiEnterprise: defineEndpoint({
    ...routes.deleteApiEnterprise,
    body: enterpriseIdRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  /** SPEC updateOpenApiToEnterpriseId: the enterprise's allowed calls, replaced whole. */
  saveEnterpriseCalls: defineEndpoint({
    ...routes.saveEnterpriseCalls,
    body: enterpriseCallsRequestSchema,
    reply: 'json',
    result: apiEnterpriseSchema,
  }),
  /** Extension: an access record's webhooks. */
  webhookList: defineEndpoint({
    ...routes.webhookList,
    query: webhookListQuerySchema,
    reply: 'json',
    result: z.array(webhookSchema),
  }),
  saveWebhook: defineEndpoint({
    ...routes.saveWebhook,
    body: saveWebhookRequestSchema,
    reply: 'json',
    result: savedWebhookSchema,
  }),
  deleteWebhook: defineEndpoint({
    ...routes.deleteWebhook,
    body: webhookIdSchema,
    reply: 'json',
    result: z.null(),
  }),
  testWebhook: defineEndpoint({
    ...routes.testWebhook,
    body: webhookIdSchema,
    reply: 'json',
    result: webhookTestResultSchema,
  }),
  webhookDeliveries: defineEndpoint({
    ...routes.webhookDeliveries,
    query: webhookDeliveriesQuerySchema,
    reply: 'json',
    result: webhookDeliveryPageSchema,
  }),
  redeliverWebhook: defineEndpoint({
    ...routes.redeliverWebhook,
    body: webhookDeliveryIdSchema,
    reply: 'json',
    result: webhookTestResultSchema,
  }),
};
