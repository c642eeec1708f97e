import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenFiles } from '../../../test/factories';
import { createItemsWorld, type ItemsWorld } from '../../../test/scenarios/items';

/** Issue 39: a folder's listing sorted by name, upload time, last change, size and type, each way. */
describe('sorting a folder listing', () => {
  let w: ItemsWorld;
  let folder: number;
  /** The items of the folder as the database holds them, to compute each order independently. */
  let rows: Array<{
    id: number;
    name: string;
    type: number;
    created_at: Date;
    updated_at: Date;
    total_size: string | number;
    file_formats: string | null;
  }>;

  beforeAll(async () => {
    w = await createItemsWorld();
    folder = await w.folder(w.designer, 'Sorting');
    await w.folder(w.designer, 'b-sub', folder);
    await w.folder(w.designer, 'A-sub', folder);
    const files = [
      ['delta.png', 300],
      ['Alpha.jpg', 100],
      ['charlie.pdf', 300],
      ['bravo.jpg', 300],
      ['echo.mp4', 50],
      ['foxtrot.png', 100],
    ] as const;
    for (const [fileName, size] of files) {
      await givenFiles(w.t, w.designer, [{ fileName, bytes: Buffer.alloc(size, 1) }], {
        targetFolderId: folder,
      });
      w.t.clock.advance(1000);
    }
    // Last changes in an order of their own, with a tie (broken by id).
    const db = w.t.database.db;
    await sql`UPDATE items SET updated_at = timestamptz '2026-03-01' + (length(name) % 3) * interval '1 day'
      WHERE parent_id = ${folder}`.execute(db);
    rows = await db
      .selectFrom('items')
      .select(['id', 'name', 'type', 'created_at', 'updated_at', 'total_size', 'file_formats'])
      .where('parent_id', '=', folder)
      .execute();
  });
  afterAll(() => w.t.close());

  const keyOf: Record<string, (r: (typeof rows)[number]) => Array<string | number>> = {
    name: (r) => [r.name.toLowerCase()],
    uploaded: (r) => [r.created_at.getTime()],
    modified: (r) => [r.updated_at.getTime()],
    size: (r) => [Number(r.total_size)],
    type: (r) => [r.file_formats ?? '\uffff', r.name.toLowerCase()],
  };
  const compare = (a: Array<string | number>, b: Array<string | number>) => {
    for (let i = 0; i < a.length; i++) {
      const x = a[i] as string | number;
      const y = b[i] as string | number;
      if (x !== y) return x < y ? -1 : 1;
    }
    return 0;
  };
  /** Folders first, then the field in the direction, then the id in the same direction. */
  const expected = (field: string, direction: 1 | -1) =>
    [...rows]
      .sort(
        (a, b) =>
          Number(a.type !== 1) - Number(b.type !== 1) ||
          direction * compare([...keyOf[field]!(a), a.id], [...keyOf[field]!(b), b.id]),
      )
      .map((r) => r.name);

  it.each(
    ['name', 'uploaded', 'modified', 'size', 'type'].flatMap((f) => [[f, '1'] as const, [f, '2'] as const]),
  )(
    'sorts by %s (rankStatus %s), folders first, and pages of two add up to the whole order',
    async (field, rank) => {
      const want = expected(field, rank === '1' ? 1 : -1);
      const whole = await w.list(w.designer, folder, `&rankStatus=${rank}&sortBy=${field}`);
      expect(whole.status).toBe(200);
      expect(whole.listing.list.map((i) => i.name)).toEqual(want);
      const paged: string[] = [];
      for (let pageNo = 1; pageNo <= 5; pageNo++) {
        const { listing } = await w.list(
          w.designer,
          folder,
          `&rankStatus=${rank}&sortBy=${field}&pageSize=2&pageNo=${pageNo}`,
        );
        paged.push(...listing.list.map((i) => i.name));
        expect(listing.hasMore).toBe(pageNo < 4);
      }
      expect(paged).toEqual(want);
    },
  );

  it('reads the expected orders a user sees', async () => {
    const names = async (query: string) =>
      (await w.list(w.designer, folder, query)).listing.list.map((i) => i.name);
    const bySizeDown = await names('&rankStatus=2&sortBy=size');
    expect(bySizeDown.slice(0, 2).sort()).toEqual(['A-sub', 'b-sub']);
    expect(bySizeDown.slice(2, 5).sort()).toEqual(['bravo', 'charlie', 'delta']);
    expect(bySizeDown.at(-1)).toBe('echo');
    expect(await names('&rankStatus=1&sortBy=uploaded')).toEqual([
      'b-sub',
      'A-sub',
      'delta',
      'Alpha',
      'charlie',
      'bravo',
      'echo',
      'foxtrot',
    ]);
    expect((await names('&rankStatus=1&sortBy=type')).slice(2)).toEqual([
      'Alpha',
      'bravo',
      'echo',
      'charlie',
      'delta',
      'foxtrot',
    ]);
  });

  it('keeps the listing as before without sortBy: default newest first, rankStatus up/down by name', async () => {
    expect(await w.names(w.designer, folder)).toEqual([
      'A-sub',
      'b-sub',
      'foxtrot',
      'echo',
      'bravo',
      'charlie',
      'Alpha',
      'delta',
    ]);
    const up = await w.list(w.designer, folder, '&rankStatus=1');
    expect(up.listing.list.map((i) => i.name)).toEqual(expected('name', 1));
    // The default order ignores sortBy.
    const normal = await w.list(w.designer, folder, '&rankStatus=0&sortBy=size');
    expect(normal.listing.list.map((i) => i.name)).toEqual(await w.names(w.designer, folder));
  });

  it('refuses an unknown sort field with a clear error', async () => {
    const { status, body } = await w.list(w.designer, folder, '&rankStatus=1&sortBy=colour');
    expect(status).toBe(400);
    expect(body.errorCode).toBe('SE_400');
    expect(body.errorDesc).toContain('sortBy');
  });
});
