import { endpoints } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { route } from '../../http/endpoint';

/** For load balancers and the about page: answers only when the database does. */
export const healthRoutes: FastifyPluginAsync<{ db: Db; version: string; databaseKind: string }> = async (
  app,
  { db, version, databaseKind },
) => {
  route(app, endpoints.health, async () => {
    try {
      await sql`SELECT 1`.execute(db);
    } catch {
      throw new AppError('SE_503');
    }
    return { status: 'ok' as const, version, database: databaseKind };
  });
};
