import { endpoints } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { route } from '../../http/endpoint';
import type { Readiness } from './readiness';

/**
 * For load balancers, orchestrators and the about page. `/health` answers only when the database
 * does; `/health/live` whenever the process serves requests (a failing database must not get a
 * healthy process restarted); `/health/ready` with 503 until database, migrations and storage are.
 */
export const healthRoutes: FastifyPluginAsync<{
  db: Db;
  version: string;
  databaseKind: string;
  readiness: Readiness;
}> = async (app, { db, version, databaseKind, readiness }) => {
  route(app, endpoints.health, async () => {
    try {
      await sql`SELECT 1`.execute(db);
    } catch {
      throw new AppError('SE_503');
    }
    return { status: 'ok' as const, version, database: databaseKind, runtime: process.version };
  });
  route(app, endpoints.healthLive, async () => ({ status: 'alive' as const }));
  route(app, endpoints.healthReady, async (_request, reply) => {
    const checks = await readiness.check();
    const ready = checks.database && checks.migrations && checks.storage;
    if (!ready) reply.code(503);
    return { status: ready ? ('ready' as const) : ('not-ready' as const), checks };
  });
};
