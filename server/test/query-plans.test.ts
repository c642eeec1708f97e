import { BATCH_SEARCH_MAX_VALUES, ItemType } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/database';
import { ensureFirstAdministrator } from '../src/modules/accounts/bootstrap';
import { AccountsRepository } from '../src/modules/accounts/repository';
import { DownloadsRepository } from '../src/modules/downloads/repository';
import { ItemsRepository, type ListOrder, type Viewer } from '../src/modules/items/repository';
import { SearchRepository } from '../src/modules/search/repository';
import { createTestDatabase } from './harness';

/**
 * The plans of the listing, search and download queries on PostgreSQL with a folder of 200,000
 * files (issue 12; bench/scale.ts times the same queries at 1M): each is an index range that stops
 * after a page or probes per value — never a sequential scan or a sort of the whole folder.
 * PostgreSQL only: the plans are PostgreSQL's (PGlite shares the planner, not the scale).
 */
const FOLDER_FILES = 200_000;
const SMALL_FILES = 3_000;

describe.runIf(process.env.TEST_DB === 'postgres')('query plans at scale (PostgreSQL)', () => {
  let database: DatabaseHandle;
  const big = { id: 500, idPath: '/500/' };
  const small = { id: 501, idPath: '/501/' };
  const everyone: Viewer = { userId: 1, view: { kind: 'all' } };
  const department: Viewer = { userId: 2, view: { kind: 'subtree', pathPrefix: '/1/' } };

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = database.db;
    await ensureFirstAdministrator(new AccountsRepository(db), {
      adminEmail: 'owner@example.com',
      adminPassword: 'Owner#2026',
    });
    for (const folder of [big, small])
      await sql`INSERT INTO items (id, type, parent_id, name, id_path, folder_path, owner_id, dept_path)
        VALUES (${folder.id}, 1, NULL, ${`f${folder.id}`}, ${folder.idPath}, '/', 1, '/1/')`.execute(db);
    const seed = async (folder: typeof big, first: number, count: number) => {
      await sql`INSERT INTO items (id, type, parent_id, name, id_path, folder_path, owner_id, dept_path, art_num, created_at)
        SELECT ${first} + g, 2, ${folder.id}, CASE WHEN g % 5 = 0 THEN 'detail-' ELSE 'shot-' END || g,
          ${folder.idPath} || (${first} + g) || '/', '/f', 1, '/1/', 'AB' || lpad((g / 5)::text, 6, '0'),
          timestamptz '2026-01-01' + g * interval '1 second'
        FROM generate_series(1, ${count}::int) g`.execute(db);
      await sql`INSERT INTO uploads (batch_num, user_id, file_name, base_name, format, file_size, storage_key, status, item_id, completed_at)
        SELECT 'b', 1, g || '.jpg', g::text, 'jpg', 1, 'k' || (${first} + g), 2, ${first} + g, timestamptz '2026-01-01' + g * interval '1 second'
        FROM generate_series(1, ${count}::int) g`.execute(db);
    };
    await seed(big, 1_000_000, FOLDER_FILES);
    await seed(small, 2_000_000, SMALL_FILES);
    await sql`ANALYZE items`.execute(db);
    await sql`ANALYZE uploads`.execute(db);
  }, 120_000);
  afterAll(() => database?.close());

  /** The plan as text, long constant lists cut short so a failure stays readable. */
  const planOf = async (query: { explain(): Promise<Array<Record<string, unknown>>> }) =>
    (await query.explain())
      .map((row) => String(Object.values(row)[0]).replace(/'\{([^}]{0,60})[^}]*\}'/g, "'{$1…}'"))
      .join('\n');

  it.each([
    ['normal', /items_listing_time|items_live_time/],
    ['nameAsc', /items_listing_name /],
    ['nameDesc', /items_listing_name_desc/],
  ] as Array<[ListOrder, RegExp]>)(
    'lists a page of the big folder in order %s by walking an index',
    async (order, index) => {
      const items = new ItemsRepository(database.db);
      for (const viewer of [everyone, department]) {
        const plan = await planOf(items.listChildrenQuery(big.id, viewer, {}, order, 51, 0));
        // Which index walks newest first depends on how much of the table the folder is: both
        // stop after a page. What must not happen is reading the whole folder and sorting it.
        expect(plan).toMatch(index);
        expect(plan).not.toMatch(/Seq Scan on items|Sort/);
      }
    },
  );

  it('finds 10,000 article numbers by one index probe each, never by the trigram index', async () => {
    const search = new SearchRepository(database.db);
    const values = Array.from(
      { length: BATCH_SEARCH_MAX_VALUES },
      (_, i) => `AB${String(i * 7).padStart(6, '0')}`,
    );
    const match = { kind: 'artNumIn', values } as const;
    for (const plan of [
      await planOf(search.searchQuery(match, department, null, 'normal', 51, 0)),
      await planOf(search.matchedValuesQuery(match, department, null)),
    ]) {
      expect(plan).toContain('Index Scan using items_art_num_key on items');
      expect(plan).not.toMatch(/trgm|Seq Scan on items/);
    }
    const titles = await planOf(
      search.searchQuery({ kind: 'nameIn', values: ['shot-1', 'detail-5'] }, everyone, null, 'normal', 51, 0),
    );
    expect(titles).toContain('items_name_key');
    expect(titles).not.toMatch(/trgm|Seq Scan on items/);
  });

  it('returns the newest page of a broad search without sorting every hit', async () => {
    const search = new SearchRepository(database.db);
    const plan = await planOf(
      search.searchQuery(
        { kind: 'nameContains', text: 'detail' },
        everyone,
        [ItemType.image],
        'normal',
        51,
        0,
      ),
    );
    expect(plan).toContain('items_live_time');
    expect(plan).not.toMatch(/Sort/);
  });

  it('plans a download of 3,000 selected files, or of a folder, per file', async () => {
    const downloads = new DownloadsRepository(database.db);
    const ids = Array.from({ length: SMALL_FILES }, (_, i) => 2_000_001 + i);
    for (const plan of [
      await planOf(downloads.sourcesQuery(ids, [], department)),
      await planOf(downloads.sourcesQuery([], [small.idPath], department)),
    ]) {
      expect(plan).toContain('uploads_latest');
      expect(plan).toMatch(/items_pkey|items_id_path/);
      expect(plan).not.toMatch(/Seq Scan/);
    }
  });
});
