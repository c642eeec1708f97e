import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it, vi } from 'vitest';
import type { Endpoint } from './endpoints/define';
import { openEndpoints } from './endpoints/open';
import { ERROR_HTTP_STATUS } from './errors';
import { OPEN_API_HEADERS, OPEN_API_PREFIX, OPEN_ART_NUMS_MAX } from './open-api-values';
import { OPEN_API_ERROR_RESPONSES, openApiDocument } from './openapi-document';

// biome-ignore lint/suspicious/noExplicitAny: the test walks a plain JSON document by its keys
type Json = Record<string, any>;
const table = openEndpoints as Record<string, Endpoint>;
const pathOf = (endpoint: Endpoint) => endpoint.path.replace(/:(\w+)/g, '{$1}');

describe('openApiDocument', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const document = openApiDocument({ version: '0.1.0', serverUrl: 'https://dam.example.com/' });
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: 'https://dam.example.com' }]);
    // The validator dereferences what it is given: hand it a copy of the (frozen) memo.
    const result = await validate(JSON.parse(JSON.stringify(document)));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it('lists every open call under its path and method, with its doc and table key', () => {
    const document = openApiDocument() as Json;
    const listed: string[] = [];
    for (const [name, endpoint] of Object.entries(table)) {
      const operation = document.paths[pathOf(endpoint)]?.[endpoint.method.toLowerCase()];
      expect(operation, `${name}: ${endpoint.method} ${endpoint.path}`).toBeDefined();
      expect(operation.operationId).toBe(name);
      expect(operation.tags).toEqual([endpoint.doc?.tag]);
      expect(operation.summary).toBe(endpoint.doc?.summary);
      listed.push(name);
    }
    // …and nothing else: every operation is a call of the table under the open prefix.
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.values(methods as Json).map((operation) => ({ path, id: operation.operationId as string })),
    );
    expect(operations.map((o) => o.id).sort()).toEqual(listed.sort());
    for (const { path } of operations) expect(path.startsWith(`${OPEN_API_PREFIX}/`)).toBe(true);
  });

  it('takes requests and answers from the schemas', () => {
    const document = openApiDocument() as Json;
    const byArtNums = document.paths[pathOf(openEndpoints.openAssetsByArtNums)].post;
    const body = byArtNums.requestBody.content['application/json'].schema;
    expect(body.properties.artNums).toMatchObject({
      type: 'array',
      minItems: 1,
      maxItems: OPEN_ART_NUMS_MAX,
    });
    // io 'input': a field with a default is optional to send.
    expect(body.required).toEqual(['artNums']);
    const answer = byArtNums.responses['200'].content['application/json'].schema;
    expect(answer.required).toEqual(['success', 'result', 'errorCode', 'errorDesc']);
    expect(answer.properties.result.properties.matches.items.properties.assets.items).toEqual({
      $ref: '#/components/schemas/OpenAssetSummary',
    });
    expect(document.components.schemas.OpenAssetSummary.properties.artNum).toEqual({
      type: ['string', 'null'],
    });

    // Path and query parameters, `:id` written `{id}`.
    const asset = document.paths[`${OPEN_API_PREFIX}/assets/{id}`].get;
    expect(asset.parameters[0]).toMatchObject({
      name: 'id',
      in: 'path',
      required: true,
      schema: { type: 'integer' },
    });
    expect(asset.responses['200'].content['application/json'].schema.properties.result).toEqual({
      $ref: '#/components/schemas/OpenAsset',
    });
    const byFolder = document.paths[`${OPEN_API_PREFIX}/assets/by-folder`].get;
    const query = Object.fromEntries(
      byFolder.parameters.filter((p: Json) => p.in === 'query').map((p: Json) => [p.name, p]),
    );
    expect(query.folderId).toMatchObject({ required: true, schema: { type: 'integer' } });
    // The input side of a transform: what is sent is the string.
    expect(query.recursive).toMatchObject({
      required: false,
      schema: { type: 'string', enum: ['true', 'false'] },
    });
  });

  it('describes the signature and the bytes answers', () => {
    const document = openApiDocument() as Json;
    const scheme = document.components.securitySchemes.damKey;
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: OPEN_API_HEADERS.key });
    for (const header of Object.values(OPEN_API_HEADERS)) expect(scheme.description).toContain(header);
    expect(scheme.description).toContain('DAM-HMAC-SHA256');
    expect(document.security).toEqual([{ damKey: [] }]);

    const headers = Object.values(document.components.parameters as Record<string, Json>).map((p) => p.name);
    expect(headers.sort()).toEqual(
      [
        OPEN_API_HEADERS.timestamp,
        OPEN_API_HEADERS.nonce,
        OPEN_API_HEADERS.contentSha256,
        OPEN_API_HEADERS.signature,
      ].sort(),
    );

    // The ticket download is unsigned and answers bytes.
    const download = document.paths[pathOf(openEndpoints.openDownload)].get;
    expect(download.security).toEqual([]);
    expect(download.parameters.map((p: Json) => p.name)).toEqual(['ticket']);
    expect(Object.keys(download.responses['200'].content)).toEqual(['application/octet-stream']);
    expect(download.responses['401']).toBeUndefined();
    // A signed call names the signed headers and the key's errors.
    const tags = document.paths[pathOf(openEndpoints.openTags)].get;
    expect(tags.security).toBeUndefined();
    expect(tags.parameters).toContainEqual({ $ref: '#/components/parameters/DamSignature' });
    expect(tags.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
    expect(tags.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
  });

  it('answers errors as the envelope with the codes of their status', () => {
    const document = openApiDocument() as Json;
    for (const [status, { name, codes }] of Object.entries(OPEN_API_ERROR_RESPONSES)) {
      for (const code of codes) expect(ERROR_HTTP_STATUS[code], code).toBe(Number(status));
      const schema = document.components.responses[name].content['application/json'].schema;
      expect(schema.properties.errorCode.enum).toEqual(codes);
      expect(schema.properties.success).toMatchObject({ const: false });
    }
    expect(
      document.components.responses.Error.content['application/json'].schema.properties.errorCode,
    ).toEqual({
      $ref: '#/components/schemas/ErrorCode',
    });
  });

  it('is memoized and deterministic', async () => {
    const first = openApiDocument({ version: '2' });
    expect(openApiDocument({ version: '2' })).toBe(first);
    expect(Object.isFrozen(first.paths)).toBe(true);
    // A fresh module (nothing memoized, schemas converted again) writes the same JSON.
    vi.resetModules();
    const fresh = await import('./openapi-document');
    expect(JSON.stringify(fresh.openApiDocument({ version: '2' }))).toBe(JSON.stringify(first));
  });

  it('stays out of the package index (the web app imports the index)', async () => {
    const index = await import('./index');
    expect('openApiDocument' in index).toBe(false);
  });
});
