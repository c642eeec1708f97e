import { createHmac, randomBytes } from 'node:crypto';
import type { WebhookEvent, WebhookPayload } from '@dam/contract';
import { encodeChangeCursor } from '../open-api/changes/cursor';

/*
 * Webhook messages as Standard Webhooks (standardwebhooks.com) describes them:
 *   webhook-id         msg_<delivery id>, the same on every attempt of a delivery
 *   webhook-timestamp  unix seconds of this attempt
 *   webhook-signature  v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>, where the key is
 *                      the base64-decoded secret after its `whsec_` prefix
 */

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
export const SECRET_HINT_CHARS = 4;
export const USER_AGENT = 'DAM-Webhooks/1';

/** A new signing secret: `whsec_` and base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The associated data a webhook's secret is sealed with: bound to its id. */
export const webhookSecretContext = (webhookId: number): string => `webhook:${webhookId}`;

export const messageIdOf = (deliveryId: string | number): string => `msg_${deliveryId}`;

/** `v1,<signature>` of a message. */
export function signatureOf(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
  const digest = createHmac('sha256', key)
    .update(`${messageId}.${timestamp}.${body}`, 'utf8')
    .digest('base64');
  return `v1,${digest}`;
}

/** The headers of one attempt. */
export function webhookHeaders(
  secret: string,
  deliveryId: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  const messageId = messageIdOf(deliveryId);
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureOf(secret, messageId, timestamp, body),
  };
}

/**
 * The event one journal entry is told as (an entry may hold several kinds; `data.kinds` has them
 * all): removal first, then creation, a new format, and any other change as an update.
 */
export function eventOfKinds(kinds: readonly string[]): WebhookEvent {
  if (kinds.includes('deleted') || kinds.includes('purged')) return 'asset.deleted';
  if (kinds.includes('created')) return 'asset.created';
  if (kinds.includes('approved')) return 'asset.approved';
  if (kinds.includes('formatAdded')) return 'asset.formatAdded';
  return 'asset.updated';
}

/** What a `ping` (send a test) carries. */
export function pingPayload(now: Date): WebhookPayload {
  return {
    type: 'ping',
    timestamp: now.toISOString(),
    data: {
      assetId: null,
      name: null,
      artNum: null,
      formats: [],
      folderId: null,
      folderPath: null,
      kinds: [],
      changeCursor: null,
    },
  };
}

/** The cursor of the changes call just after a journal entry. */
export const changeCursorOf = (txid: string, id: string): string => encodeChangeCursor({ txid, id });
