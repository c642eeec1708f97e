import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './app-error';
import { describeField, failure, reasonOfIssue } from './envelope';

/**
 * One handler turns every failure into the envelope of SPEC §8 with a localised errorDesc.
 * Unexpected errors are logged with their stack and answered SE_500 without details.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const lang = request.lang;
    if (error instanceof AppError) {
      const detail = error.field
        ? describeField(lang, error.field.name, error.field.reason, error.field.values)
        : undefined;
      if (error.status >= 500) request.log.error({ err: error }, 'request failed');
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.status).send(failure(error.code, lang, detail, error.valuesIn(lang)));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const field =
        issue?.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'body';
      const { reason, values } = issue
        ? reasonOfIssue(issue)
        : { reason: 'invalidValue' as const, values: {} };
      return reply.code(400).send(failure('SE_400', lang, describeField(lang, field, reason, values)));
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.code(429).send(failure('SE_429', lang));
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // Named with its limit, not as the malformed body below: the caller can do something about it.
      const max = byteSize(request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0);
      return reply.code(413).send(failure('SE_413', lang, undefined, { max }));
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, body too large and the like.
      const what = error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'content-type' : 'body';
      return reply.code(status).send(failure('SE_400', lang, describeField(lang, what, 'invalidFormat')));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send(failure('SE_500', lang));
  });
}

/** A size in the units people read: `1 MiB`, `512 KiB`, `1.5 MiB`, `900 B`. */
export function byteSize(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : Number(value.toFixed(1))} ${units[unit]}`;
}
