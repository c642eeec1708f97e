import { describe, expect, expectTypeOf, it } from 'vitest';
import { MAIN_API_PREFIX, SECURITY_API_PREFIX } from './constants';
import {
  ENDPOINT_PREFIXES,
  type Endpoint,
  type EndpointBody,
  type EndpointQuery,
  type EndpointResult,
  endpointPath,
  endpointRoutes,
  endpoints,
} from './endpoints';
import { collectionsEndpoints } from './endpoints/collections';
import { completenessEndpoints } from './endpoints/completeness';
import { compositeEndpoints } from './endpoints/composite';
import { downloadsEndpoints } from './endpoints/downloads';
import { filesEndpoints } from './endpoints/files';
import { importsEndpoints } from './endpoints/imports';
import { itemsEndpoints } from './endpoints/items';
import { jobsAdminEndpoints } from './endpoints/jobs-admin';
import { mailGroupsEndpoints } from './endpoints/mail-groups';
import { mailNoticesEndpoints } from './endpoints/mail-notices';
import { metadataEndpoints } from './endpoints/metadata';
import { metadataMappingEndpoints } from './endpoints/metadata-mapping';
import {
  clientEndpoints,
  healthEndpoints,
  logsEndpoints,
  mailEndpoints,
  searchEndpoints,
} from './endpoints/misc';
import { openEndpoints } from './endpoints/open';
import { openAdminEndpoints } from './endpoints/open-admin';
import { reportsEndpoints } from './endpoints/reports';
import { reviewEndpoints } from './endpoints/review';
import { accountsEndpoints, securityEndpoints } from './endpoints/security';
import { sharesEndpoints } from './endpoints/shares';
import { similarEndpoints } from './endpoints/similar';
import { skuEndpoints } from './endpoints/sku';
import { ssoEndpoints } from './endpoints/sso';
import { tagsEndpoints } from './endpoints/tags';
import { uploadsEndpoints } from './endpoints/uploads';

const areas = [
  securityEndpoints,
  jobsAdminEndpoints,
  ssoEndpoints,
  accountsEndpoints,
  itemsEndpoints,
  filesEndpoints,
  uploadsEndpoints,
  skuEndpoints,
  tagsEndpoints,
  downloadsEndpoints,
  sharesEndpoints,
  searchEndpoints,
  logsEndpoints,
  reportsEndpoints,
  clientEndpoints,
  mailEndpoints,
  mailGroupsEndpoints,
  mailNoticesEndpoints,
  importsEndpoints,
  completenessEndpoints,
  openAdminEndpoints,
  openEndpoints,
  compositeEndpoints,
  similarEndpoints,
  metadataEndpoints,
  metadataMappingEndpoints,
  collectionsEndpoints,
  reviewEndpoints,
  healthEndpoints,
];

describe('the endpoint table', () => {
  const all: [string, Endpoint][] = Object.entries(endpoints);

  it('names each call once (no feature area shadows another)', () => {
    const names = areas.flatMap((area) => Object.keys(area));
    expect(new Set(names).size).toBe(names.length);
    expect(all.length).toBe(names.length);
  });

  it('serves each method and path once', () => {
    const keys = all.map(([, endpoint]) => `${endpoint.method} ${endpoint.path}`);
    const repeated = keys.filter((key, index) => keys.indexOf(key) !== index);
    expect(repeated).toEqual([]);
  });

  it('starts every path with a known prefix', () => {
    const strays = all
      .filter(
        ([, e]) => !ENDPOINT_PREFIXES.some((prefix) => e.path === prefix || e.path.startsWith(`${prefix}/`)),
      )
      .map(([name]) => name);
    expect(strays).toEqual([]);
    expect(endpoints.login.path).toBe(`${SECURITY_API_PREFIX}/login`);
    expect(endpoints.fileDetail.path).toBe(`${MAIN_API_PREFIX}/v1_0/file/detail`);
  });

  it('gives every JSON call a result schema and every path parameter a schema', () => {
    for (const [name, endpoint] of all) {
      if (endpoint.reply === 'json') expect(endpoint.result, name).toBeDefined();
      const named = [...endpoint.path.matchAll(/:(\w+)/g)].map((match) => match[1]);
      if (named.length > 0) expect(endpoint.params, name).toBeDefined();
    }
  });

  it('gives the web the same method and path for every call, and no schemas', () => {
    expect(Object.keys(endpointRoutes).sort()).toEqual(Object.keys(endpoints).sort());
    for (const [name, endpoint] of all) {
      expect(endpointRoutes[name as keyof typeof endpointRoutes], name).toEqual({
        method: endpoint.method,
        path: endpoint.path,
      });
    }
  });

  it('fills path parameters', () => {
    expect(endpointPath(endpoints.visitShare, { code: 'ab c' })).toBe(
      `${MAIN_API_PREFIX}/v1_0/user/share/random/ab%20c`,
    );
    expect(() => endpointPath(endpoints.visitShare)).toThrow(':code');
    expect(endpointPath(endpointRoutes.visitShare, { code: 'x' })).toBe(
      `${MAIN_API_PREFIX}/v1_0/user/share/random/x`,
    );
  });

  it('keeps literal types for the request and result', () => {
    expectTypeOf(endpoints.fileDetail.method).toEqualTypeOf<'GET'>();
    expectTypeOf(endpoints.fileDetail.path).toEqualTypeOf<'/ske-api/v1_0/file/detail'>();
    expectTypeOf<EndpointResult<typeof endpoints.createFolder>>().toHaveProperty('folderId');
    expectTypeOf<EndpointBody<typeof endpoints.createFolder>>().not.toBeUndefined();
    expectTypeOf<EndpointQuery<typeof endpoints.createFolder>>().toBeUndefined();
    expectTypeOf<EndpointQuery<typeof endpoints.fileDetail>>().toHaveProperty('id');
  });
});
