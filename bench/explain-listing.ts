// Seeds one folder with 100,000 items in a scratch database (PGlite in memory, or with
// TEST_DB=postgres a new database on TEST_DATABASE_URL, dropped afterwards) and prints the time and
// plan of the first listing page, to keep the listing index-driven.
import { sql } from 'kysely';
import { ensureFirstAdministrator } from '../server/src/modules/accounts/bootstrap';
import { AccountsRepository } from '../server/src/modules/accounts/repository';
import { ItemsRepository } from '../server/src/modules/items/repository';
import { createTestDatabase } from '../server/test/harness';

const handle = await createTestDatabase();
await ensureFirstAdministrator(new AccountsRepository(handle.db), {
  adminEmail: 'a@example.com',
  adminPassword: 'Admin#2026',
});
const repo = new ItemsRepository(handle.db);
const folderId = await repo.insertFolder({
  parent_id: null,
  parentIdPath: '/',
  name: 'big',
  folder_path: '/',
  owner_id: 1,
  dept_path: '/1/',
  visibility: 'shared',
  created_at: new Date(),
});
const started = Date.now();
await sql`INSERT INTO items (type, parent_id, name, id_path, folder_path, owner_id, dept_path, created_at)
  SELECT 2, ${folderId}, 'file-' || g, '/' || ${folderId} || '/x' || g || '/', '/big', 1, '/1/', now() - (g || ' seconds')::interval
  FROM generate_series(1, 100000) g`.execute(handle.db);
await sql`ANALYZE items`.execute(handle.db);
console.log(`seeded 100k in ${Date.now() - started} ms`);
for (const [order, label] of [
  ['normal', 'newest first'],
  ['nameAsc', 'by name'],
] as const) {
  for (const view of [{ kind: 'all' as const }, { kind: 'subtree' as const, pathPrefix: '/1/' }]) {
    const t0 = performance.now();
    const rows = await repo.listChildren(folderId, { userId: 2, view }, {}, order, 51, 0);
    console.log(
      `${label}, scope ${view.kind}: ${rows.length} rows in ${(performance.now() - t0).toFixed(1)} ms`,
    );
  }
}
const plan = await sql<{
  'QUERY PLAN': string;
}>`EXPLAIN ANALYZE SELECT id FROM items WHERE state = 1 AND parent_id = ${folderId}
  AND (owner_id = 2 OR (visibility = 'shared' AND dept_path LIKE '/1/%'))
  ORDER BY (type <> 1), created_at DESC, id DESC LIMIT 51`.execute(handle.db);
console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
await handle.close();
