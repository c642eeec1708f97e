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
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, body too large and the like.
      const what = error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'content-type' : 'body';
      return reply.code(status).send(failure('SE_400', lang, describeField(lang, what, 'invalidFormat')));
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send(failure('SE_500', lang));
  });
}
