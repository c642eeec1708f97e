import { z } from 'zod';
import type { Endpoint } from './endpoints/define';
import { openEndpoints } from './endpoints/open';
import { ERROR_CODES, type ErrorCode } from './errors';
import {
  openAssetFormatSchema,
  openAssetSchema,
  openAssetSummarySchema,
  openAssetTagSchema,
  openLinkSchema,
} from './open-api-schemas';
import { OPEN_API_HEADERS, OPEN_API_PREFIX } from './open-api-values';
import {
  INFO_DESCRIPTION,
  OPEN_API_ERROR_RESPONSES,
  SIGNED_HEADER_PARAMETERS,
  SIGNING_RECIPE,
  TAG_DESCRIPTIONS,
} from './openapi-document-text';
import {
  WEBHOOK_PAYLOAD_SCHEMA,
  webhookPayloadJsonSchema,
  webhooksSection,
} from './openapi-document-webhooks';

/**
 * The OpenAPI 3.1 document of the open API, generated from the endpoint table (`openEndpoints`):
 * paths, parameters, bodies and answers come from the same zod schemas the server validates and
 * serialises with, so the document cannot drift from what is served. Served by the server at
 * GET /open/v1/openapi.json and shown at /open/docs (modules/open-api/docs).
 *
 * Its own entry (`@dam/contract/openapi-document`), not the package index: the web app imports the index
 * and never needs this.
 */

export { OPEN_API_ERROR_RESPONSES } from './openapi-document-text';

/** The parts of an OpenAPI 3.1 document this module writes (plain JSON). */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers?: Array<{ url: string }>;
  tags: Array<{ name: string; description?: string }>;
  security: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  /** What the product sends to registered webhooks (openapi-document-webhooks.ts). */
  webhooks: Record<string, { post: Record<string, unknown> }>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, unknown>;
    responses: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
}
export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: unknown[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
}
type JsonSchema = Record<string, unknown>;

export interface OpenApiInfo {
  /** `info.version` (default '1', the API's major version in its prefix). */
  version?: string;
  /** The origin the paths hang off (`servers[0].url`), e.g. the deployment's PUBLIC_URL. */
  serverUrl?: string;
}

const SCHEMA_URI = '#/components/schemas/';
const SECURITY_SCHEME = 'damKey';

const errorCodeSchema = z.enum(ERROR_CODES);
/** Result shapes several calls share: `$ref`s to components.schemas instead of copies. */
const SHARED_SCHEMAS: ReadonlyArray<readonly [string, z.ZodType]> = [
  ['OpenAssetSummary', openAssetSummarySchema],
  ['OpenAsset', openAssetSchema],
  ['OpenAssetFormat', openAssetFormatSchema],
  ['OpenAssetTag', openAssetTagSchema],
  ['OpenLink', openLinkSchema],
  ['ErrorCode', errorCodeSchema],
];

/**
 * Converts zod schemas to JSON Schema 2020-12 in one pass: `entries` by an id of their own, the
 * shared schemas (output only) as `$ref`s to components.schemas. Ids starting with `~` are this
 * module's own (a call's query, body, answer): they are placed inline, never referenced.
 */
function convert(
  entries: ReadonlyArray<readonly [string, z.ZodType]>,
  io: 'input' | 'output',
): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  if (io === 'output') for (const [id, schema] of SHARED_SCHEMAS) registry.add(schema, { id });
  for (const [id, schema] of entries) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    // Refinements and transforms have no JSON Schema; what they accept is in the descriptions.
    unrepresentable: 'any',
    uri: (id) => `${SCHEMA_URI}${id}`,
    override: ({ jsonSchema }) => {
      // Answers may gain fields: clients should not refuse an answer for one they do not know.
      if (io === 'output' && jsonSchema.additionalProperties === false)
        delete jsonSchema.additionalProperties;
    },
  });
  if ('__shared' in schemas) throw new Error('openApiDocument: a schema was extracted to __shared');
  const result: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
    result[id] = rest;
  }
  return result;
}

/** Registers each schema once, under the first id asked for it (two calls may share one). */
class Batch {
  private readonly ids = new Map<z.ZodType, string>();
  idOf(schema: z.ZodType, id: string): string {
    const known = this.ids.get(schema);
    if (known) return known;
    this.ids.set(schema, id);
    return id;
  }
  get entries(): Array<readonly [string, z.ZodType]> {
    return [...this.ids].map(([schema, id]) => [id, schema] as const);
  }
}

/** The envelope of a successful JSON call. */
function successEnvelope(result: z.ZodType): z.ZodType {
  return z.object({
    success: z.literal(true),
    result,
    errorCode: z.null(),
    errorDesc: z.null(),
  });
}

function errorEnvelope(codes: readonly ErrorCode[] | null): z.ZodType {
  return z.object({
    success: z.literal(false),
    result: z.null(),
    errorCode: codes ? z.enum(codes as [ErrorCode, ...ErrorCode[]]) : errorCodeSchema,
    errorDesc: z.string(),
  });
}

/** Query or path parameters from an object schema's properties. */
function parametersOf(schema: JsonSchema, where: 'query' | 'path'): unknown[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

/** Every `$ref` in `value` must point at components.schemas (an inline `~` id would dangle). */
function checkRefs(value: unknown, known: Set<string>, where: string): void {
  if (Array.isArray(value)) for (const item of value) checkRefs(item, known, where);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') {
        if (!item.startsWith(SCHEMA_URI) || !known.has(item.slice(SCHEMA_URI.length)))
          throw new Error(`openApiDocument: ${where} refers to ${item}, which is not a shared schema`);
      } else checkRefs(item, known, where);
    }
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/** paths, components and tags: the same for every `info`, built once. */
function buildBody(): Pick<OpenApiDocument, 'paths' | 'components' | 'tags'> {
  const table = openEndpoints as Record<string, Endpoint>;
  const inputs = new Batch();
  const outputs = new Batch();
  const ids = Object.entries(table).map(([name, endpoint]) => ({
    name,
    endpoint,
    params: endpoint.params ? inputs.idOf(endpoint.params, `~${name}.params`) : null,
    query: endpoint.query ? inputs.idOf(endpoint.query, `~${name}.query`) : null,
    body: endpoint.body ? inputs.idOf(endpoint.body, `~${name}.body`) : null,
    result:
      endpoint.reply === 'json' ? outputs.idOf(successEnvelope(endpoint.result), `~${name}.result`) : null,
  }));
  const errorIds = Object.entries(OPEN_API_ERROR_RESPONSES).map(
    ([status, { name, codes }]) => [status, outputs.idOf(errorEnvelope(codes), `~error.${name}`)] as const,
  );
  const defaultErrorId = outputs.idOf(errorEnvelope(null), '~error.default');

  const input = convert(inputs.entries, 'input');
  const output = convert(outputs.entries, 'output');
  const shared = Object.fromEntries(Object.entries(output).filter(([id]) => !id.startsWith('~')));
  const sharedIds = new Set(Object.keys(shared));
  checkRefs(input, sharedIds, 'a request schema');
  checkRefs(output, sharedIds, 'an answer schema');
  const schemaOf = (all: Record<string, JsonSchema>, id: string): JsonSchema => {
    const schema = all[id];
    if (!schema) throw new Error(`openApiDocument: no JSON Schema for ${id}`);
    return schema;
  };
  const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

  const responses: Record<string, unknown> = {
    Error: {
      description: 'Any other error, as the envelope.',
      content: json(schemaOf(output, defaultErrorId)),
    },
  };
  for (const [status, id] of errorIds) {
    const response: { name: string; description: string; headers?: unknown } =
      OPEN_API_ERROR_RESPONSES[Number(status) as keyof typeof OPEN_API_ERROR_RESPONSES];
    responses[response.name] = {
      description: response.description,
      ...(response.headers ? { headers: response.headers } : {}),
      content: json(schemaOf(output, id)),
    };
  }
  const ref = (kind: 'responses' | 'parameters', name: string) => ({ $ref: `#/components/${kind}/${name}` });

  const paths: OpenApiDocument['paths'] = {};
  const tags: string[] = [];
  for (const { name, endpoint, params, query, body, result } of ids) {
    if (!endpoint.doc) throw new Error(`openApiDocument: ${name} has no doc`);
    if (!endpoint.path.startsWith(OPEN_API_PREFIX))
      throw new Error(`openApiDocument: ${name} is not an open call`);
    const signed = endpoint.openCall !== undefined;
    if (!tags.includes(endpoint.doc.tag)) tags.push(endpoint.doc.tag);
    const parameters = [
      ...(params ? parametersOf(schemaOf(input, params), 'path') : []),
      ...(query ? parametersOf(schemaOf(input, query), 'query') : []),
      ...(signed ? Object.keys(SIGNED_HEADER_PARAMETERS).map((p) => ref('parameters', p)) : []),
    ];
    const operation: OpenApiOperation = {
      operationId: name,
      tags: [endpoint.doc.tag],
      summary: endpoint.doc.summary,
      ...(endpoint.doc.description ? { description: endpoint.doc.description } : {}),
      // Unsigned: the link's ticket is the authorisation.
      ...(signed ? {} : { security: [] }),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(body ? { requestBody: { required: true, content: json(schemaOf(input, body)) } } : {}),
      responses: {
        200: result
          ? { description: 'The envelope with the result.', content: json(schemaOf(output, result)) }
          : {
              description:
                name === 'openApiDocument'
                  ? 'This document (not in the envelope).'
                  : 'The bytes (errors are the envelope).',
              content:
                name === 'openApiDocument'
                  ? { 'application/json': { schema: { type: 'object' } } }
                  : { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
            },
        ...Object.fromEntries(
          Object.entries(OPEN_API_ERROR_RESPONSES)
            .filter(([status]) => signed || status === '400')
            .map(([status, { name: responseName }]) => [status, ref('responses', responseName)]),
        ),
        default: ref('responses', 'Error'),
      },
    };
    const path = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const method = endpoint.method.toLowerCase();
    paths[path] ??= {};
    if (paths[path][method]) throw new Error(`openApiDocument: ${endpoint.method} ${path} twice`);
    paths[path][method] = operation;
  }

  return {
    tags: tags.map((tag) => ({
      name: tag,
      ...(TAG_DESCRIPTIONS[tag] ? { description: TAG_DESCRIPTIONS[tag] } : {}),
    })),
    paths,
    components: {
      schemas: shared,
      parameters: Object.fromEntries(
        Object.entries(SIGNED_HEADER_PARAMETERS).map(([key, p]) => [
          key,
          { in: 'header', required: true, ...p },
        ]),
      ),
      responses,
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: OPEN_API_HEADERS.key,
          description: SIGNING_RECIPE,
        },
      },
    },
  };
}

let body: ReturnType<typeof buildBody> | null = null;
const documents = new Map<string, OpenApiDocument>();

/**
 * The OpenAPI 3.1.0 document of every open call. Deterministic (the same input gives the same
 * JSON) and memoized: the same frozen object for the same `info`; clone it before changing it.
 */
export function openApiDocument(info: OpenApiInfo = {}): OpenApiDocument {
  const version = info.version ?? '1';
  const key = JSON.stringify([version, info.serverUrl ?? null]);
  const known = documents.get(key);
  if (known) return known;
  body ??= buildBody();
  const document: OpenApiDocument = deepFreeze({
    openapi: '3.1.0',
    info: { title: 'DAM open API', version, description: INFO_DESCRIPTION },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl.replace(/\/+$/, '') }] } : {}),
    tags: body.tags,
    security: [{ [SECURITY_SCHEME]: [] }],
    paths: body.paths,
    webhooks: webhooksSection(),
    components: {
      ...body.components,
      schemas: { ...body.components.schemas, [WEBHOOK_PAYLOAD_SCHEMA]: webhookPayloadJsonSchema() },
    },
  });
  documents.set(key, document);
  return document;
}
