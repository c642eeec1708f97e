import fs from 'node:fs';
import { ItemType, OperationCode, UploadStatus } from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/database';
import { ensureFirstAdministrator } from '../src/modules/accounts/bootstrap';
import { AccountsRepository } from '../src/modules/accounts/repository';
import { DownloadsRepository } from '../src/modules/downloads/repository';
import { colourFilterOf } from '../src/modules/items/colour-filter';
import { ItemsRepository, type ListOrder, type Viewer } from '../src/modules/items/repository';
import { ReportsRepository } from '../src/modules/reports/repository';
import { SearchRepository } from '../src/modules/search/repository';
import { DuplicateReportRepository } from '../src/modules/similar/report.repository';
import { SimilarRepository } from '../src/modules/similar/repository';
import { ADMIN, createTestDatabase } from './harness';
import {
  checkedInAreas,
  fileOf,
  QUERIES_DIR,
  REFRESH_COMMAND,
  SqlRecorder,
  sqlFile,
  UPDATING,
} from './sql-capture';

/**
 * The SQL of the hot paths, checked in (issue 41 item 6): each area's repository calls run on a
 * few rows, their statements are written out as server/src/queries/<area>.sql, and a change of
 * any of them fails here until the file is refreshed (`npm run sync:sql`) and committed with it,
 * so a reviewer sees a query change in the diff. Kysely compiles the same SQL for PGlite and
 * PostgreSQL (one dialect), so the PGlite project alone writes and checks the files; their plans at
 * scale are checked on PostgreSQL by query-plans.test.ts.
 */
const FOLDER = { id: 9_100, idPath: '/9100/' };
const FILE = { id: 9_101, artNum: 'SQL0001' };
const everyone: Viewer = { userId: 1, view: { kind: 'all' } };
const department: Viewer = { userId: 1, view: { kind: 'subtree', pathPrefix: '/1/' } };
const ownOnly: Viewer = { userId: 1, view: { kind: 'none' } };
const ORDERS: ListOrder[] = [
  'normal',
  ...(['name', 'uploaded', 'modified', 'size', 'type'] as const).flatMap(
    (field) => [`${field}Asc`, `${field}Desc`] as const,
  ),
];
const red = colourFilterOf('#cc0000', 'normal');
const palette = [{ l: 0.6, a: 0.2, b: 0.1, w: 1 }];
const HASH = '0123456789abcdef';

type Area = { area: string; about: string; run(db: SqlRecorder['db'], rec: SqlRecorder): Promise<void> };

const AREAS: Area[] = [
  {
    area: 'listing',
    about: 'a folder listing (items/service.ts listFolder)',
    async run(db, rec) {
      const items = new ItemsRepository(db);
      await rec.capture('ItemsRepository.findById (the folder)', () => items.findById(FOLDER.id, 1));
      await rec.capture('ItemsRepository.namesOnPath (breadcrumb)', () => items.namesOnPath(FOLDER.idPath));
      await rec.capture('ItemsRepository.tagFilterGroups', () => items.tagFilterGroups([1, 2]));
      for (const order of ORDERS)
        await rec.capture(`ItemsRepository.listChildren, order ${order}, a department's view`, () =>
          items.listChildren(FOLDER.id, department, {}, order, 51, 0),
        );
      for (const [name, viewer] of [
        ['everything', everyone],
        ['own files only', ownOnly],
      ] as const)
        await rec.capture(`ItemsRepository.listChildren, order normal, a view of ${name}`, () =>
          items.listChildren(FOLDER.id, viewer, {}, 'normal', 51, 0),
        );
      await rec.capture('ItemsRepository.listChildren, top level', () =>
        items.listChildren(null, department, {}, 'normal', 51, 0),
      );
      await rec.capture('ItemsRepository.listChildren, dates, validity and two tag groups', () =>
        items.listChildren(
          FOLDER.id,
          department,
          {
            minCreatedAt: new Date('2026-01-01T00:00:00Z'),
            maxCreatedAt: new Date('2026-02-01T00:00:00Z'),
            minExpireDate: '2026-01-01',
            maxExpireDate: '2027-01-01',
            validOn: '2026-03-01',
            tagGroups: [[1, 2], [3]],
          },
          'normal',
          51,
          0,
        ),
      );
      await rec.capture('ItemsRepository.listChildren, a colour (choosing probe or walk)', () =>
        items.listChildren(FOLDER.id, department, { colour: red }, 'normal', 51, 0),
      );
      for (const walk of [false, true])
        await rec.capture(`ItemsRepository.listChildren, a colour, ${walk ? 'walk' : 'probe'}`, () =>
          items.listChildren(FOLDER.id, department, { colour: red, colourWalk: walk }, 'normal', 51, 0),
        );
    },
  },
  {
    area: 'search',
    about: 'the global search (search/service.ts)',
    async run(db, rec) {
      const search = new SearchRepository(db);
      const images = [ItemType.image];
      await rec.capture('SearchRepository.search, title contains', () =>
        search.search({ kind: 'nameContains', text: 'shot' }, department, null, 'normal', 51, 0),
      );
      await rec.capture('SearchRepository.search, article number contains, images, by name', () =>
        search.search({ kind: 'artNumContains', text: 'sql' }, department, images, 'nameAsc', 51, 0),
      );
      for (const kind of ['nameIn', 'artNumIn'] as const) {
        const match = { kind, values: ['sql0001', 'sql0002'] };
        await rec.capture(`SearchRepository.search, batch (${kind})`, () =>
          search.search(match, department, null, 'normal', 51, 0),
        );
        await rec.capture(`SearchRepository.matchedValues, batch (${kind})`, () =>
          search.matchedValues(match, department, null),
        );
      }
      await rec.capture('SearchRepository.search, title contains, a colour', () =>
        search.search({ kind: 'nameContains', text: 'shot' }, department, null, 'normal', 51, 0, red),
      );
      await rec.capture('SearchRepository.search, a colour alone (the colour walk)', () =>
        search.search({ kind: 'any' }, department, images, 'normal', 51, 0, red),
      );
    },
  },
  {
    area: 'downloads',
    about: 'download planning (downloads/service.ts)',
    async run(db, rec) {
      const downloads = new DownloadsRepository(db);
      await rec.capture('DownloadsRepository.itemsByIds', () => downloads.itemsByIds([FOLDER.id, FILE.id]));
      await rec.capture('DownloadsRepository.recordsByIds', () => downloads.recordsByIds([1, 2]));
      await rec.capture('DownloadsRepository.sourcesOfRoots, a file and a folder', () =>
        downloads.sourcesOfRoots(
          [
            { id: FILE.id, type: ItemType.image, id_path: `${FOLDER.idPath}${FILE.id}/` },
            { id: FOLDER.id, type: ItemType.folder, id_path: FOLDER.idPath },
          ],
          department,
        ),
      );
      await rec.capture('DownloadsRepository.sourcesOf', () => downloads.sourcesOf([FOLDER.id], department));
      await rec.capture('DownloadsRepository.sourcesByArtNums', () =>
        downloads.sourcesByArtNums([FILE.artNum, 'SQL0002'], department),
      );
      await rec.capture('DownloadsRepository.countDownloads', () => downloads.countDownloads([FILE.id]));
    },
  },
  {
    area: 'similar',
    about: "a file's similar images and the near-duplicate checks (similar/service.ts)",
    async run(db, rec) {
      const similar = new SimilarRepository(db);
      const scope = { viewer: department, excludeItemIds: [FILE.id] };
      await rec.capture('SimilarRepository.itemFacts', () => similar.itemFacts(FILE.id));
      await rec.capture('SimilarRepository.itemUploads', () => similar.itemUploads(FILE.id, 5));
      await rec.capture('SimilarRepository.lookup, in what the caller sees', () =>
        similar.lookup(HASH, 10, scope, 50),
      );
      await rec.capture('SimilarRepository.lookup, archive-wide (pairs)', () =>
        similar.lookup(HASH, 11, null, 50),
      );
      await rec.capture('SimilarRepository.palettes', () => similar.palettes([1, 2]));
      await rec.capture('SimilarRepository.itemPalette', () => similar.itemPalette(FILE.id));
      await rec.capture('SimilarRepository.byColour', () =>
        similar.byColour(palette, [1, 2], scope, 0.1, 20),
      );
      await rec.capture('SimilarRepository.items', () => similar.items([FILE.id], department));
      await rec.capture('SimilarRepository.ownUploads', () => similar.ownUploads(1, [1, 2]));
      await rec.capture('SimilarRepository.fingerprintOf', () => similar.fingerprintOf(1));
    },
  },
  {
    area: 'duplicate-report',
    about: 'the near-duplicate report (similar/report.ts)',
    async run(db, rec) {
      const report = new DuplicateReportRepository(db);
      for (const [name, scope] of [
        ['archive-wide', {}],
        ['a department', { deptPath: '/1/' }],
        ['a folder in a department', { deptPath: '/1/', folderIdPath: FOLDER.idPath }],
      ] as const)
        await rec.capture(`DuplicateReportRepository.pairs, ${name}`, () =>
          report.pairs(scope, 10, 80, 2_001),
        );
      await rec.capture('DuplicateReportRepository.visibleMembers', () =>
        report.visibleMembers([FILE.id], department),
      );
      await rec.capture('DuplicateReportRepository.departmentPath', () => report.departmentPath(1));
      await rec.capture('DuplicateReportRepository.departmentNames', () => report.departmentNames(['/1/']));
    },
  },
  {
    area: 'reports-rollup',
    about: "the data reports' daily rollup (the report-rollup job)",
    async run(db, rec) {
      // The first rollup: it also clears the tables and starts from the log's first day.
      await rec.capture('ReportsRepository.rollUp', () =>
        new ReportsRepository(db).rollUp('2026-01-21', 'Asia/Shanghai', new Date('2026-01-21T00:00:00Z')),
      );
    },
  },
  {
    area: 'reports',
    about: 'the data reports (reports/service.ts)',
    async run(db, rec) {
      const reports = new ReportsRepository(db);
      const now = new Date('2026-02-01T00:00:00Z');
      await rec.capture('ReportsRepository.state', () => reports.state());
      for (const dimension of ['department', 'user', 'fileType'] as const)
        await rec.capture(`ReportsRepository.report by ${dimension}, rolled-up days and the live rest`, () =>
          reports.report({
            startDate: '2026-01-01',
            endExclusive: '2026-02-01',
            timeZone: 'Asia/Shanghai',
            rolledUntil: '2026-01-21',
            scope: { kind: 'subtree', pathPrefix: '/1/' },
            dimension,
            bucket: 'week',
          }),
        );
      await rec.capture('ReportsRepository.storage by department, since the count', () =>
        reports.storage({ kind: 'subtree', pathPrefix: '/1/' }, 'department', now),
      );
      await rec.capture('ReportsRepository.department', () => reports.department(1));
      await rec.capture('ReportsRepository.userNames', () => reports.userNames([1]));
    },
  },
];

describe.skipIf(process.env.TEST_DB === 'postgres')('checked-in SQL of the hot paths', () => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = database.db;
    const owner = { adminEmail: ADMIN.email, adminPassword: ADMIN.password };
    await ensureFirstAdministrator(new AccountsRepository(db), owner);
    // A folder with a file, its finished record and one log entry: enough for every call to reach
    // its queries (a download plan reads the roots it finds, the rollup the days it has).
    await sql`INSERT INTO items (id, type, parent_id, name, id_path, folder_path, owner_id, dept_path, art_num)
      VALUES (${FOLDER.id}, ${ItemType.folder}, NULL, 'sql-folder', ${FOLDER.idPath}, '/', 1, '/1/', NULL),
        (${FILE.id}, ${ItemType.image}, ${FOLDER.id}, 'sql-shot', ${`${FOLDER.idPath}${FILE.id}/`},
          '/sql-folder', 1, '/1/', ${FILE.artNum})`.execute(db);
    await sql`INSERT INTO uploads (batch_num, user_id, file_name, base_name, format, file_size, storage_key, status, item_id, completed_at)
      VALUES ('b', 1, 'sql-shot.jpg', 'sql-shot', 'jpg', 1, 'k-sql', ${UploadStatus.done}, ${FILE.id}, timestamptz '2026-01-05')`.execute(
      db,
    );
    await sql`INSERT INTO operation_logs (created_at, operator_id, operator_name, operator_code, item_ids)
      VALUES (timestamptz '2026-01-05 10:00+08', 1, 'owner', ${OperationCode.upload}, ARRAY[${FILE.id}]::bigint[])`.execute(
      db,
    );
  });
  afterAll(() => database?.close());

  it.each(AREAS)(
    'the SQL behind $about is as checked in (server/src/queries/$area)',
    async ({ area, run }) => {
      const recorder = new SqlRecorder(database.db);
      await run(recorder.db, recorder);
      const text = sqlFile(area, recorder.take());
      const file = fileOf(area);
      if (UPDATING) {
        fs.mkdirSync(QUERIES_DIR, { recursive: true });
        fs.writeFileSync(file, text);
        return;
      }
      const checkedIn = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      expect(
        text,
        `the SQL of ${area} changed: run \`${REFRESH_COMMAND}\` (npm run sync:sql) and commit server/src/queries`,
      ).toBe(checkedIn);
    },
  );

  it('keeps no file of an area that is no longer written', () => {
    const stale = checkedInAreas().filter((name) => !AREAS.some(({ area }) => area === name));
    if (UPDATING) for (const name of stale) fs.rmSync(fileOf(name));
    else expect(stale, `server/src/queries has files no area writes: run \`${REFRESH_COMMAND}\``).toEqual([]);
  });
});
