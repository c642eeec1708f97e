import { envelopeSchema } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ok } from '../../http/envelope';

const healthSchema = z.object({ status: z.literal('ok'), version: z.string(), database: z.string() });

/** For load balancers and the about page: answers only when the database does. */
export const healthRoutes: FastifyPluginAsync<{ db: Db; version: string; databaseKind: string }> = async (
  app,
  { db, version, databaseKind },
) => {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/health', { schema: { response: { 200: envelopeSchema(healthSchema) } } }, async () => {
      try {
        await sql`SELECT 1`.execute(db);
      } catch {
        throw new AppError('SE_503');
      }
      return ok({ status: 'ok' as const, version, database: databaseKind });
    });
};
