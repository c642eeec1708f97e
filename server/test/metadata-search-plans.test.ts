import type { MetadataFilter } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/database';
import { ensureFirstAdministrator } from '../src/modules/accounts/bootstrap';
import { AccountsRepository } from '../src/modules/accounts/repository';
import type { Viewer } from '../src/modules/items/repository';
import { SearchRepository } from '../src/modules/search/repository';
import { createTestDatabase } from './harness';

/**
 * The plans of the search on embedded metadata (issue 42 item 2) on PostgreSQL with 1M
 * upload_metadata rows: 200,000 files of five records each (four formats and an older version).
 * Apart from query-plans.test.ts (its own tables, its own size; that file is at its length limit),
 * in its way: a rare value is found through migration 038's indexes and only its few hits sorted;
 * a common one walks the newest items and probes each one's records. Never a sequential scan of
 * the metadata, the records or the items, never a sort of many rows.
 */
const FILES = 200_000;
const FIRST_ITEM = 3_000_000;

describe.runIf(process.env.TEST_DB === 'postgres')('metadata search plans at 1M records (PostgreSQL)', () => {
  let database: DatabaseHandle;
  const everyone: Viewer = { userId: 1, view: { kind: 'all' } };
  const department: Viewer = { userId: 2, view: { kind: 'subtree', pathPrefix: '/1/' } };

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = database.db;
    await ensureFirstAdministrator(new AccountsRepository(db), {
      adminEmail: 'owner@example.com',
      adminPassword: 'Owner#2026',
    });
    await sql`INSERT INTO items (id, type, parent_id, name, id_path, folder_path, owner_id, dept_path)
      VALUES (${FIRST_ITEM}, 1, NULL, 'md-plans', ${`/${FIRST_ITEM}/`}, '/', 1, '/1/')`.execute(db);
    await sql`INSERT INTO items (id, type, parent_id, name, id_path, folder_path, owner_id, dept_path, created_at)
      SELECT ${FIRST_ITEM} + g, 2, ${FIRST_ITEM}, 'shot-' || g, ${`/${FIRST_ITEM}/`} || (${FIRST_ITEM} + g) || '/',
        '/md-plans', 1, '/1/', timestamptz '2026-01-01' + g * interval '1 second'
      FROM generate_series(1, ${FILES}::int) g`.execute(db);
    // Per file: jpg, tif, psd, png, and an older jpg the newer one replaced.
    await sql`INSERT INTO uploads (batch_num, user_id, file_name, base_name, format, file_size, storage_key, status, item_id, completed_at)
      SELECT 'b', 1, g || '.' || f.format, g::text, f.format, 1, 'k' || g || '-' || f.n, 2, ${FIRST_ITEM} + g,
        timestamptz '2026-01-01' + g * interval '1 second' + f.n * interval '1 minute'
      FROM generate_series(1, ${FILES}::int) g
      CROSS JOIN (VALUES (0, 'jpg'), (1, 'jpg'), (2, 'tif'), (3, 'psd'), (4, 'png')) AS f(n, format)`.execute(
      db,
    );
    // Common values on many records, rare ones on a few (every 20,000th), dates over three years,
    // and as in an archive, keywords of many kinds (5,000, on 200 records each) beside a common one.
    await sql`INSERT INTO upload_metadata (upload_id, status, creator, copyright, camera, keywords, captured_local)
      SELECT u.id, 1,
        CASE WHEN u.id % 20000 = 7 THEN 'Rare Person ' || u.id WHEN u.id % 5 < 2 THEN 'Studio Zhang' END,
        CASE WHEN u.id % 20000 = 11 THEN 'Rare Rights ' || u.id WHEN u.id % 2 = 0 THEN '© 2026 Brand' END,
        CASE WHEN u.id % 20000 = 13 THEN 'Hasselblad X2D' WHEN u.id % 2 = 0 THEN 'Canon EOS R5' ELSE 'NIKON Z 8' END,
        CASE WHEN u.id % 20000 = 17 THEN ARRAY['shoe', 'RareKeyword'] ELSE ARRAY['shoe', 'kw' || (u.id % 5000)] END,
        timestamp '2024-01-01' + (u.id % 1096) * interval '1 day' + interval '10 hours'
      FROM uploads u`.execute(db);
    for (const table of ['items', 'uploads', 'upload_metadata'])
      await sql`VACUUM (ANALYZE) ${sql.table(table)}`.execute(db);
  }, 900_000);
  afterAll(() => database?.close());

  const planOf = async (query: { explain(): Promise<Array<Record<string, unknown>>> }) =>
    (await query.explain()).map((row) => String(Object.values(row)[0])).join('\n');
  /** Rows of each Sort node ("Sort  (cost=… rows=N"); a Merge Append's "Sort Key" is not one. */
  const sortedRows = (plan: string) =>
    [...plan.matchAll(/Sort\s+\(cost=[\d.]+\.\.[\d.]+ rows=(\d+)/g)].map(([, rows]) => Number(rows));

  const rare: Array<[string, MetadataFilter, RegExp]> = [
    ['a rare creator', { creator: 'rare person' }, /upload_metadata_creator_trgm/],
    ['a rare copyright', { copyright: 'rare rights' }, /upload_metadata_copyright_trgm/],
    ['a rare camera', { camera: 'hasselblad' }, /upload_metadata_camera_trgm/],
    ['a rare keyword', { keyword: 'rarekeyword' }, /upload_metadata_keywords/],
    ['one capture day', { capturedFrom: '2025-03-04', capturedTo: '2025-03-04' }, /upload_metadata_captured/],
  ];
  it.each(rare)('finds %s through its index and sorts only its hits', async (_, filter, index) => {
    const search = new SearchRepository(database.db);
    for (const viewer of [everyone, department])
      for (const order of ['normal', 'nameAsc'] as const) {
        const plan = await planOf(
          search.searchQuery({ kind: 'any' }, viewer, null, order, 51, 0, undefined, filter),
        );
        expect(plan).toMatch(index);
        expect(plan).not.toMatch(/Seq Scan on (upload_metadata|uploads|items)/);
        for (const rows of sortedRows(plan)) expect(rows).toBeLessThan(FILES / 20);
      }
  });

  const common: Array<[string, MetadataFilter]> = [
    ['a common creator', { creator: 'zhang' }],
    ['a common camera', { camera: 'canon' }],
    ['a common keyword', { keyword: 'shoe' }],
    ['a year of capture days', { capturedFrom: '2025-01-01', capturedTo: '2025-12-31' }],
  ];
  it.each(common)('returns the newest page of %s without sorting every hit', async (_, filter) => {
    const search = new SearchRepository(database.db);
    for (const viewer of [everyone, department]) {
      const plan = await planOf(
        search.searchQuery({ kind: 'any' }, viewer, null, 'normal', 51, 0, undefined, filter),
      );
      expect(plan).not.toMatch(/Seq Scan on (upload_metadata|uploads|items)/);
      for (const rows of sortedRows(plan)) expect(rows).toBeLessThan(FILES / 20);
    }
  });

  it('combines a metadata filter with a title search', async () => {
    const search = new SearchRepository(database.db);
    const plan = await planOf(
      search.searchQuery(
        { kind: 'nameContains', text: 'shot-1999' },
        department,
        null,
        'normal',
        51,
        0,
        undefined,
        {
          creator: 'zhang',
          capturedFrom: '2024-06-01',
        },
      ),
    );
    expect(plan).not.toMatch(/Seq Scan on (upload_metadata|uploads|items)/);
    for (const rows of sortedRows(plan)) expect(rows).toBeLessThan(FILES / 20);
  });
});
