import { endpoints, FunctionCode } from '@dam/contract';
import { type OpenApiInfo, openApiDocument } from '@dam/contract/openapi-document';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../http/app-error';
import { route } from '../../../http/endpoint';
import { tokenOf } from '../../../http/request-context';
import { cookieToken } from '../../../http/session-cookie';
import { type AuthContext, requireAnyCode } from '../../access/access';

/**
 * The open API's OpenAPI 3.1 document (generated from the contract: @dam/contract/openapi-document) and a
 * page that shows it (issue 15). Design: docs/plans/issue-15-open-api.md §1.
 */

/** Where the docs page is: Swagger UI, its files, and the document it shows (`/json`, `/yaml`). */
export const OPEN_DOCS_PATH = '/open/docs';

export interface OpenApiDocumentOptions {
  /** `info` of the document: the app's version, and PUBLIC_URL as its server when set. */
  info: OpenApiInfo;
}

/**
 * GET /open/v1/openapi.json: the document itself (not in the envelope), for any valid key. Goes in
 * the open API's keyed scope (app.ts), whose key check admits it (`openCall: 'any'`).
 */
export const openApiDocumentRoutes: FastifyPluginAsync<OpenApiDocumentOptions> = async (app, { info }) => {
  // Built and serialised on the first call, then the same bytes every time.
  let json: string | null = null;
  route(app, endpoints.openApiDocument, async (_request, reply) => {
    json ??= JSON.stringify(openApiDocument(info));
    return reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(json);
  });
};

export interface OpenDocsOptions extends OpenApiDocumentOptions {
  authenticate: (token: string | undefined) => Promise<AuthContext>;
}

const wantsPage = (request: FastifyRequest) =>
  request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');

/**
 * /open/docs: Swagger UI showing the document, for signed-in people holding function code 7 (the
 * /manage/api administrators). A browser opens it as a page, so besides the `token` header the
 * session may come as the web app's `skToken` cookie (only here: GET-only, read-only, see
 * docs/decisions.md). Without a session a page request goes to /login and back; anything else (the
 * page's scripts, its `json`) gets the 401 envelope. "Try it out" is off: a browser cannot sign.
 *
 * Light at start-up: Swagger UI's files are sent from disk when asked for (registering reads only
 * its small logo), and the document is the contract's memo (built once, ~10 ms, shared with
 * /open/v1/openapi.json). Swagger UI's page loads its scripts from files (no inline script), so
 * the app's Content-Security-Policy (helmet, `script-src 'self'`) stays as it is.
 */
export const openDocsRoutes: FastifyPluginAsync<OpenDocsOptions> = async (app, { info, authenticate }) => {
  // Every route of this scope (the page, its files, the document): the plugins below register
  // theirs inside it, after this hook.
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    let auth: AuthContext;
    try {
      auth = await authenticate(tokenOf(request) ?? cookieToken(request));
    } catch (error) {
      if (error instanceof AppError && error.status === 401 && wantsPage(request)) {
        reply.header('cache-control', 'no-store');
        return reply.redirect(`/login?redirect=${encodeURIComponent(OPEN_DOCS_PATH)}`, 302);
      }
      throw error;
    }
    // As requireSignIn: while the password must be changed, nothing but that.
    if (auth.passwordExpired) throw new AppError('SE_502');
    requireAnyCode(auth, FunctionCode.api);
    request.auth = auth;
    // The page and the document are for this session only; Swagger UI's own files (under
    // static/) keep @fastify/static's validators (ETag, Last-Modified): a revisit costs a 304.
    if (!request.url.startsWith(`${OPEN_DOCS_PATH}/static/`)) reply.header('cache-control', 'no-store');
  });
  await app.register(fastifySwagger, {
    mode: 'static',
    // A copy: @fastify/swagger keeps the object it is given, and the memo is frozen.
    specification: { document: structuredClone(openApiDocument(info)) as never },
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: OPEN_DOCS_PATH,
    uiConfig: {
      // A browser cannot sign a request: no "Try it out".
      supportedSubmitMethods: [],
      // Without the top bar (a URL field to load other documents, and the Fastify logo).
      layout: 'BaseLayout',
      deepLinking: true,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
    },
    // No call to validator.swagger.io (the badge): the document is validated by the contract's tests.
    validatorUrl: false,
    theme: { title: 'DAM open API' },
  });
};
