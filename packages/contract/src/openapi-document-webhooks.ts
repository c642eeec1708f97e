import { z } from 'zod';
import { webhookPayloadSchema } from './open-api-schemas';
import { WEBHOOK_EVENTS } from './open-api-values';

/*
 * The OpenAPI 3.1 `webhooks` section: what the product sends to a registered webhook, one entry per
 * event (and `ping`, what "send a test" sends), each a POST of the payload schema with its `type`
 * fixed, and the Standard Webhooks headers that identify and sign it (server: modules/webhooks/deliver.ts).
 */

/** The schema's name under components.schemas. */
export const WEBHOOK_PAYLOAD_SCHEMA = 'WebhookPayload';

const EVENT_DESCRIPTIONS: Record<(typeof WEBHOOK_EVENTS)[number] | 'ping', string> = {
  'asset.created': 'A file the access record may see was created (uploaded or copied).',
  'asset.formatAdded': 'A file the access record may see gained a format.',
  'asset.updated': 'A file the access record may see changed (name, tags, folder and other fields).',
  'asset.deleted': 'A file the access record could see was deleted or purged.',
  'asset.approved':
    'A file the access record may see was approved for use (its review state became `approved`; issue 43).',
  ping: 'Sent by "send a test" on the webhook page; `data` is empty (nulls).',
};

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: '`msg_<delivery id>`: the same on every attempt of one delivery (deduplicate by it).',
    schema: { type: 'string', pattern: '^msg_[0-9]+$' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt; refuse messages more than five minutes from your clock.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded secret after its `whsec_` prefix (Standard Webhooks, standardwebhooks.com). Compare in constant time.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
  },
] as const;

/** The payload's JSON Schema (2020-12), generated from the contract's webhookPayloadSchema. */
export function webhookPayloadJsonSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(webhookPayloadSchema, {
    target: 'draft-2020-12',
    io: 'output',
  }) as Record<string, unknown>;
  return schema;
}

/** The `webhooks` section: one POST per event type. */
export function webhooksSection(): Record<string, { post: Record<string, unknown> }> {
  const section: Record<string, { post: Record<string, unknown> }> = {};
  for (const event of ['ping', ...WEBHOOK_EVENTS] as const) {
    section[event] = {
      post: {
        operationId: `webhook.${event}`,
        tags: ['Webhooks'],
        summary: `${event} event`,
        description: `${EVENT_DESCRIPTIONS[event]} Answer any 2xx within the time-out to acknowledge; anything else (redirects included) is retried with back-off, at most one delivery at a time per webhook.`,
        security: [],
        parameters: SIGNATURE_HEADERS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                allOf: [
                  { $ref: `#/components/schemas/${WEBHOOK_PAYLOAD_SCHEMA}` },
                  { type: 'object', properties: { type: { const: event } } },
                ],
              },
            },
          },
        },
        responses: { '2XX': { description: 'Received.' } },
      },
    };
  }
  return section;
}
