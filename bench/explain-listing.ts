// Seeds one folder with BENCH_ITEMS (default 1,000,000) files of varied sizes, formats and change
// times, plus 50 subfolders, in a scratch database (PGlite in memory, or with TEST_DB=postgres a
// new database on TEST_DATABASE_URL, dropped afterwards), and prints the time and plan of the
// first and a deep listing page in every sort order (issue 39: each < 100 ms at 1M on PostgreSQL),
// for a viewer who sees everything and one scoped to a department, to keep the listing index-driven.
import { sql } from 'kysely';
import { ensureFirstAdministrator } from '../server/src/modules/accounts/bootstrap';
import { AccountsRepository } from '../server/src/modules/accounts/repository';
import { ItemsRepository, type ListOrder } from '../server/src/modules/items/repository';
import { createTestDatabase } from '../server/test/harness';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1_000_000);
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
await sql`INSERT INTO items (type, parent_id, name, id_path, folder_path, owner_id, dept_path, file_formats,
    total_size, created_at, updated_at)
  SELECT CASE WHEN g <= 50 THEN 1 ELSE 2 END, ${folderId}, 'file-' || g, '/' || ${folderId} || '/x' || g || '/',
    '/big', 1, '/1/', CASE WHEN g <= 50 THEN NULL ELSE (ARRAY['jpg', 'jpg,psd', 'png', 'mp4', 'pdf', 'tif'])[1 + g % 6] END,
    CASE WHEN g <= 50 THEN 0 ELSE (g::bigint * 7919) % 50000000 END,
    now() - (g || ' seconds')::interval, now() - (((g::bigint * 104729) % ${ITEMS}) || ' seconds')::interval
  FROM generate_series(1, ${ITEMS}::int) g`.execute(handle.db);
await sql`VACUUM ANALYZE items`.execute(handle.db);
console.log(`seeded ${ITEMS.toLocaleString('en')} items in ${Date.now() - started} ms`);

const orders: ListOrder[] = ['normal'];
for (const field of ['name', 'uploaded', 'modified', 'size', 'type'] as const)
  orders.push(`${field}Asc`, `${field}Desc`);
const viewers = [
  { userId: 1, view: { kind: 'all' as const } },
  { userId: 2, view: { kind: 'subtree' as const, pathPrefix: '/1/' } },
];
let worst = 0;
for (const order of orders) {
  for (const viewer of viewers) {
    for (const offset of [0, 6_000]) {
      const query = repo.listChildrenQuery(folderId, viewer, {}, order, 61, offset);
      const compiled = query.compile();
      const t0 = performance.now();
      const rows = await query.execute();
      const ms = performance.now() - t0;
      const explained = await handle.db.executeQuery({ ...compiled, sql: `EXPLAIN ANALYZE ${compiled.sql}` });
      const lines = explained.rows.map((r) => Object.values(r as Record<string, string>)[0]);
      const index = lines.join('\n').match(/using (items_\w+)/)?.[1] ?? 'NO INDEX';
      const execution = lines.find((l) => l?.startsWith('Execution Time')) ?? '';
      worst = Math.max(worst, ms);
      console.log(
        `${order.padEnd(12)} ${viewer.view.kind.padEnd(7)} offset ${String(offset).padEnd(5)} ${rows.length} rows ${ms.toFixed(1).padStart(6)} ms  ${index}  ${execution}`,
      );
      if (/Seq Scan on items|Sort {2}\(/.test(lines.join('\n'))) console.log(lines.join('\n'));
    }
  }
}
console.log(`slowest page: ${worst.toFixed(1)} ms`);
await handle.close();
