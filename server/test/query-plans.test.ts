import { BATCH_SEARCH_MAX_VALUES, ItemType, signedToHash } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/database';
import { ensureFirstAdministrator } from '../src/modules/accounts/bootstrap';
import { AccountsRepository } from '../src/modules/accounts/repository';
import { DownloadsRepository } from '../src/modules/downloads/repository';
import { ItemsRepository, type ListOrder, type Viewer } from '../src/modules/items/repository';
import { MetadataRepository } from '../src/modules/metadata/repository';
import { OpenAssetsRepository } from '../src/modules/open-api/assets/repository';
import { JOURNAL_START } from '../src/modules/open-api/changes/cursor';
import { OpenChangesRepository } from '../src/modules/open-api/changes/repository';
import { SearchRepository } from '../src/modules/search/repository';
import { DuplicateReportRepository } from '../src/modules/similar/report.repository';
import { SimilarRepository } from '../src/modules/similar/repository';
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
    ['uploadedAsc', /items_listing_time_asc/],
    ['uploadedDesc', /items_listing_time|items_live_time/],
    ['modifiedAsc', /items_listing_modified_asc/],
    ['modifiedDesc', /items_listing_modified /],
    ['sizeAsc', /items_listing_size_asc/],
    ['sizeDesc', /items_listing_size /],
    ['typeAsc', /items_listing_type_asc/],
    ['typeDesc', /items_listing_type /],
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

  it('plans the open API lists as index ranges that stop after a page, and article numbers per number', async () => {
    const db = database.db;
    // A common tag on every other file of the big folder, a rare one on 50 of them.
    const [common, rare] = [900_001, 900_002];
    await sql`INSERT INTO tag_dimensions (id, name) VALUES (900000, 'plan-dim')`.execute(db);
    await sql`INSERT INTO tags (id, dimension_id, name) VALUES (${common}, 900000, 'common'), (${rare}, 900000, 'rare')`.execute(
      db,
    );
    await sql`INSERT INTO item_tags (item_id, tag_id)
      SELECT 1000000 + g, ${common}::bigint FROM generate_series(2, ${FOLDER_FILES}::int, 2) g
      UNION ALL SELECT 1000000 + g, ${rare}::bigint FROM generate_series(1, ${FOLDER_FILES}::int, ${FOLDER_FILES / 50}::int) g`.execute(
      db,
    );
    await sql`ANALYZE item_tags`.execute(db);
    const open = new OpenAssetsRepository(db);
    const artNums = Array.from({ length: 10_000 }, (_, i) => `ab${String(i * 7).padStart(6, '0')}`);
    for (const viewer of [everyone, department]) {
      const byArtNums = await planOf(open.byArtNumsQuery(artNums, viewer, ['jpg'], 20));
      expect(byArtNums).toContain('Index Scan using items_art_num_key on items');
      expect(byArtNums).not.toMatch(/trgm|Seq Scan on items/);

      for (const tagId of [common, rare]) {
        for (const after of [null, 1_100_000]) {
          const byTag = await planOf(open.byTagQuery(tagId, viewer, after, 101));
          // item_tags_tag (tag_id, item_id), or (PostgreSQL 18's skip scan) the primary key
          // (item_id, tag_id): either walks the links in item-id order from the cursor.
          expect(byTag).toMatch(/Index (Only )?Scan using item_tags_(tag|pkey) on item_tags/);
          expect(byTag).not.toMatch(/Seq Scan|Sort/);
        }
      }

      for (const after of [null, '/500/1100000/']) {
        const subtree = await planOf(open.subtreeQuery(big.idPath, viewer, after, 101));
        expect(subtree).toContain('items_id_path');
        expect(subtree).not.toMatch(/Seq Scan|Sort/);
      }

      for (const after of [null, { createdKey: '2026-01-01T12:00:00.000000', id: 1_050_000 }]) {
        const children = await planOf(open.childrenQuery(big.id, viewer, after, 101));
        expect(children).toMatch(/items_listing_time|items_live_time/);
        expect(children).not.toMatch(/Seq Scan on items|Sort/);
      }
    }
  });

  it('reads the change journal from a cursor along asset_changes_order, a page at a time', async () => {
    const db = database.db;
    // The seeding wrote an entry per file (the journal's triggers): 203,000 of them.
    await sql`ANALYZE asset_changes`.execute(db);
    const middle = await db
      .selectFrom('asset_changes')
      .select([sql<string>`txid::text`.as('txid'), sql<string>`id::text`.as('id')])
      .where('item_id', '=', 1_100_000)
      .executeTakeFirstOrThrow();
    const changes = new OpenChangesRepository(db);
    for (const after of [JOURNAL_START, middle]) {
      const { rows } = await sql<
        Record<string, unknown>
      >`EXPLAIN ${changes.changesQuery(after, 1001)}`.execute(db);
      const plan = rows.map((row) => String(Object.values(row)[0])).join('\n');
      expect(plan).toContain('asset_changes_order');
      expect(plan).not.toMatch(/Seq Scan on asset_changes|Sort/);
    }
  });

  it('finds files by colour family through its partial indexes, newest first, without sorting a folder', async () => {
    const { colourFilterOf } = await import('../src/modules/items/colour-filter');
    const db = database.db;
    // Issue 39: per file of the big folder, white covering half the picture, one of ten other
    // families 30 % and, for a third of them, grey 10 %, as the media job stores family shares.
    await sql`INSERT INTO item_colour_families (item_id, family, share, created_at)
      SELECT i.id, f.family, f.share, i.created_at
      FROM items i CROSS JOIN LATERAL (VALUES (11, 500), (1 + i.id % 10, 300), (CASE WHEN i.id % 3 = 0 THEN 12 END, 100)) AS f(family, share)
      WHERE i.parent_id = ${big.id} AND f.family IS NOT NULL`.execute(db);
    // Index-only scans need the visibility map (autovacuum's work in production).
    await sql`VACUUM (ANALYZE) item_colour_families`.execute(db);
    const search = new SearchRepository(db);
    const items = new ItemsRepository(db);
    // Merge Append's own "Sort Key" is the merge order; a Sort node is "Sort  (cost=…".
    const sortedRows = (plan: string) =>
      [...plan.matchAll(/Sort\s+\(cost=[\d.]+ rows=(\d+)/g)].map(([, rows]) => Number(rows));
    for (const hex of ['#cc0000', '#ffffff']) {
      for (const tolerance of ['tight', 'normal', 'loose'] as const) {
        const colour = colourFilterOf(hex, tolerance);
        for (const viewer of [everyone, department]) {
          // The search by a colour alone, and the listing of a folder over 100k files: one range
          // of the tolerance's partial index, newest first, each row joined to its item by key.
          for (const walk of [
            await planOf(search.searchQuery({ kind: 'any' }, viewer, null, 'normal', 51, 0, colour)),
            await planOf(
              items.listChildrenQuery(big.id, viewer, { colour, colourWalk: true }, 'normal', 51, 0),
            ),
          ]) {
            expect(walk).toMatch(/Index (Only )?Scan using item_colour_families_(300|150|80)/);
            expect(walk).toContain('Index Scan using items_pkey');
            expect(walk).not.toMatch(/Seq Scan/);
            expect(sortedRows(walk)).toEqual([]);
          }
          // The probe: a row of item_colour_families per row of the folder's listing walk (a
          // common family), or for a rare one its index range joined to the items and those few
          // hits sorted. Never a scan, never a sort of the whole folder.
          for (const order of ['normal', 'nameAsc'] as const) {
            const probe = await planOf(
              items.listChildrenQuery(big.id, viewer, { colour, colourWalk: false }, order, 51, 0),
            );
            expect(probe).toMatch(
              /items_listing_time|items_live_time|items_listing_name|item_colour_families/,
            );
            expect(probe).not.toMatch(/Seq Scan/);
            for (const rows of sortedRows(probe)) expect(rows).toBeLessThan(FOLDER_FILES / 20);
          }
        }
      }
    }
    expect(await items.countChildrenUpTo(big.id, 100_000)).toBe(100_000);
    expect(await items.countChildrenUpTo(small.id, 100_000)).toBe(SMALL_FILES);
  }, 120_000);

  it('looks up a near-duplicate by four index-only band scans, never reading all fingerprints', async () => {
    const db = database.db;
    // A fingerprint per upload (203,000): md5-made hashes, and a tenth of them copies of 100
    // hashes, so some band values clump as in an archive (plan §3.2).
    await sql`INSERT INTO media_fingerprints (upload_id, status, hash, algo)
      SELECT id, 1, ('x' || md5((CASE WHEN id % 10 = 0 THEN id % 1000 ELSE id END)::text))::bit(64)::bigint, 1
      FROM uploads`.execute(db);
    // Index-only scans need the visibility map (autovacuum's work in production).
    await sql`VACUUM (ANALYZE) media_fingerprints`.execute(db);
    const similar = new SimilarRepository(db);
    const { rows: clumped } = await sql<{ hash: string }>`SELECT hash::text AS hash FROM media_fingerprints
      WHERE upload_id % 10 = 0 ORDER BY upload_id LIMIT 1`.execute(db);
    const hashes = [signedToHash(clumped[0]?.hash ?? '0'), '0123456789abcdef'];
    for (const hash of hashes) {
      for (const scope of [{ viewer: department, excludeItemIds: [1_000_010] }, null]) {
        const plan = await planOf(similar.lookupQuery(hash, scope ? 10 : 11, scope, 50));
        for (const band of ['b0', 'b1', 'b2', 'b3'])
          expect(plan).toContain(`Index Only Scan using media_fp_${band} on media_fingerprints`);
        expect(plan).not.toMatch(/Seq Scan on (media_fingerprints|uploads|items)/);
      }
    }
  });

  it("reads a folder's near-duplicate report from the folder's files and their pairs, not every pair", async () => {
    const db = database.db;
    // Pairs among the big folder's uploads (one per ten) and the small folder's (one per three).
    await sql`INSERT INTO near_duplicate_pairs (upload_a, upload_b, distance, colour_distance)
      SELECT u.id, u.id + 1, 4, 20 FROM uploads u
      WHERE (u.item_id BETWEEN 1000000 AND 1200000 AND u.id % 10 = 0)
         OR (u.item_id BETWEEN 2000000 AND 2003000 AND u.id % 3 = 0)
      ON CONFLICT DO NOTHING`.execute(db);
    await sql`ANALYZE near_duplicate_pairs`.execute(db);
    const report = new DuplicateReportRepository(db);
    const query = report.pairsQuery({ folderIdPath: small.idPath, deptPath: '/1/' }, 10, 80, 200_001);
    const { rows } = await sql<Record<string, string>>`EXPLAIN ${query}`.execute(db);
    const plan = rows.map((row) => String(Object.values(row)[0])).join('\n');
    // The scope is found by the folder's path index. (How it reaches uploads and pairs from there
    // depends on their sizes: at this scale hashing the small tables whole is the cheaper plan.)
    expect(plan).toMatch(/Index Scan on items_id_path|Index Cond: \(\(id_path/);
    expect(plan).not.toMatch(/Seq Scan on items/);
    const found = await report.pairs({ folderIdPath: small.idPath }, 10, 80, 200_001);
    expect(found.length).toBeGreaterThan(900);
    expect(found.every((pair) => pair.itemA >= 2_000_000 && pair.itemB <= 2_003_000)).toBe(true);
  });
  it('finds the records the metadata back-fill has still to read by walking uploads by id and probing upload_metadata', async () => {
    const db = database.db;
    // A restart in mid-run: the media job has run for every record, three quarters have a row.
    await sql`UPDATE uploads SET preview_status = 1`.execute(db);
    await sql`INSERT INTO upload_metadata (upload_id, status)
      SELECT id, 1 FROM uploads WHERE id % 4 <> 0 OR id < 150000`.execute(db);
    await sql`VACUUM (ANALYZE) upload_metadata`.execute(db);
    await sql`ANALYZE uploads`.execute(db);
    const metadata = new MetadataRepository(db);
    for (const after of [0, 160_000]) {
      const plan = await planOf(metadata.unreadQuery(100, after));
      expect(plan).toMatch(/Index Scan using uploads_pkey on uploads/);
      expect(plan).toMatch(/Index Only Scan using upload_metadata_pkey on upload_metadata/);
      // Both walks start at the cursor: a batch never reads the rows of the batches before it.
      expect(plan).toMatch(new RegExp(`Index Cond: \\(upload_id > '?${after}'?(::bigint)?\\)`));
      expect(plan).not.toMatch(/Seq Scan|Sort/);
    }
    const batch = await metadata.unread(100, 0);
    expect(batch).toHaveLength(100);
    expect(batch.every((upload) => upload.id >= 150_000 && upload.id % 4 === 0)).toBe(true);
  });
});
