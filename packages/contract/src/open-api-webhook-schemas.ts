import { z } from 'zod';
import { WEBHOOK_DELIVERY_STATES, WEBHOOK_EVENTS, WEBHOOK_URL_MAX_CHARS } from './open-api-values';

/** Webhooks of the open API (management, code 7) and the payload they send; re-exported by ./open-api-schemas. */

const id = z.number().int().positive().max(2_147_483_647);
const queryId = z.coerce.number().int().positive().max(2_147_483_647);

// ——— Webhooks (management, code 7, within the record's reach) ———

export const webhookSchema = z.object({
  id: z.number().int(),
  accessId: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  /** 1 on, 0 off (switched off by hand, or after WEBHOOK_FAILURES_TO_DISABLE failures in a row). */
  status: z.union([z.literal(0), z.literal(1)]),
  /** Why it was switched off by the server, or null. */
  disabledReason: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  secretHint: z.string(),
  lastDeliveryAt: z.string().nullable(),
  lastDeliveryState: z.enum(WEBHOOK_DELIVERY_STATES).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;
export const webhookListQuerySchema = z.object({ accessId: queryId });
/**
 * POST saveWebhook: without `id` registers one (its signing secret `whsec_…` answered once); with
 * `id` edits it. The URL must be http(s) without credentials, and may not point at loopback,
 * private or link-local addresses unless WEBHOOK_ALLOWED_NETWORKS allows them (SEOA_06).
 */
export const saveWebhookRequestSchema = z.object({
  id: id.optional(),
  accessId: id,
  url: z.string().trim().min(1, { error: 'required' }).max(WEBHOOK_URL_MAX_CHARS, { error: 'tooLong' }),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1, { error: 'required' })
    .transform((events) => [...new Set(events)]),
  status: z.union([z.literal(0), z.literal(1)]).default(1),
});
export type SaveWebhookRequest = z.input<typeof saveWebhookRequestSchema>;
export const savedWebhookSchema = z.object({ id: z.number().int(), secret: z.string().nullable() });
export const webhookIdSchema = z.object({ id });
/** POST testWebhook: a `ping` delivery, queued now. */
export const webhookTestResultSchema = z.object({ deliveryId: z.number().int() });

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  eventType: z.string(),
  assetId: z.number().int().nullable(),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number().int(),
  /** The receiver's HTTP status of the last attempt, or null (no answer). */
  lastStatus: z.number().int().nullable(),
  /** Why the last attempt failed (time-out, refused address, the answer's first bytes…). */
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveriesQuerySchema = z.object({
  webhookId: queryId,
  pageNo: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const webhookDeliveryPageSchema = z.object({
  list: z.array(webhookDeliverySchema),
  total: z.number().int(),
  pageNo: z.number().int(),
  pageSize: z.number().int(),
});
export type WebhookDeliveryPage = z.infer<typeof webhookDeliveryPageSchema>;
/** POST redeliverWebhook: a failed (or delivered) delivery sent again, as a new attempt series. */
export const webhookDeliveryIdSchema = z.object({ deliveryId: id });

/** What a receiver gets (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature headers). */
export const webhookPayloadSchema = z.object({
  type: z.string(),
  timestamp: z.string(),
  data: z.object({
    assetId: z.number().int().nullable(),
    name: z.string().nullable(),
    artNum: z.string().nullable(),
    formats: z.array(z.string()),
    folderId: z.number().int().nullable(),
    folderPath: z.string().nullable(),
    kinds: z.array(z.string()),
    /** Where the changes call would start after this change. */
    changeCursor: z.string().nullable(),
  }),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
