import { type Endpoint, envelopeSchema, type JsonEndpoint } from '@dam/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import { COMPRESSION } from './compression';
import { ok } from './envelope';

type Parsed<S> = S extends z.ZodType ? z.output<S> : unknown;

/** The request of a call, its body, query and params typed as the table's schemas parse them. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Body: Parsed<E['body']>;
  Querystring: Parsed<E['query']>;
  Params: Parsed<E['params']>;
}>;

/** A JSON call's handler returns the envelope's result; a binary call's sends the bytes itself. */
export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<E extends JsonEndpoint ? z.input<E['result']> : FastifyReply>;

/** What a route adds to its table entry: rate limits, long bodies, hooks. */
export type RouteOptions = Pick<
  RouteShorthandOptions,
  'config' | 'preHandler' | 'onRequest' | 'exposeHeadRoute' | 'attachValidation'
>;

/**
 * Registers one call of the contract's endpoint table: method, full path and request schemas come
 * from the table, the 200 response is the envelope of its result; the route file supplies the
 * handler. Register route plugins without a prefix: the table's paths carry it.
 */
export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
): void;
export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  options: RouteOptions,
  handler: EndpointHandler<E>,
): void;
export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  optionsOrHandler: RouteOptions | EndpointHandler<E>,
  maybeHandler?: EndpointHandler<E>,
): void {
  const [options, handler] =
    typeof optionsOrHandler === 'function' ? [{}, optionsOrHandler] : [optionsOrHandler, maybeHandler];
  if (!handler) throw new Error(`route ${endpoint.path}: no handler`);
  // A prefix would be added twice: the table's paths are complete.
  if (app.prefix !== '') throw new Error(`route ${endpoint.path}: registered under the prefix ${app.prefix}`);
  app.route({
    ...options,
    // The open API's key check reads which call this is (modules/open-api/auth).
    ...(endpoint.openCall ? { config: { ...options.config, openCall: endpoint.openCall } } : {}),
    // JSON answers are compressed when large enough; bytes (zips, files) go as they are.
    ...(endpoint.reply === 'json' ? { compress: COMPRESSION } : {}),
    method: endpoint.method,
    url: endpoint.path,
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
      ...(endpoint.body ? { body: endpoint.body } : {}),
      ...(endpoint.reply === 'json' ? { response: { 200: envelopeSchema(endpoint.result) } } : {}),
    },
    handler: async (request, reply) => {
      const result = await handler(request as EndpointRequest<E>, reply);
      return endpoint.reply === 'json' ? ok(result) : result;
    },
  });
}
