import { startCluster } from '../../server/test/cluster';
import { ADMIN } from './support';

/**
 * The server of the scaled-out browser journeys (E2E_CLUSTER=1, issue 12 goal 9): two app
 * processes and a worker on a fresh PostgreSQL database (TEST_DATABASE_URL's server) and an
 * S3-protocol store, behind the round-robin proxy on E2E_PORT. Stops them all, dropping the
 * database, when Playwright ends it.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) throw new Error('E2E_CLUSTER=1 needs TEST_DATABASE_URL (a PostgreSQL server)');
const cluster = await startCluster({
  serverUrl,
  admin: ADMIN,
  web: true,
  proxyPort: Number(process.env.E2E_PORT),
  env: { LOGIN_RATE_LIMIT: '1000' },
});
console.log(`cluster on ${cluster.url}: ${cluster.apps.length} apps, ${cluster.workers.length} worker`);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await cluster.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
