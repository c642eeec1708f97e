import {
  ColourFamily,
  colourCell,
  colourFamilyOfHex,
  endpoints,
  ItemType,
  oklabOfHex,
  UploadStatus,
} from '@dam/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../../test/call';
import { post } from '../../../test/harness';
import { createItemsWorld, type ItemsWorld } from '../../../test/scenarios/items';
import { colourFilterOf } from './colour-filter';
import { ItemsRepository } from './repository';

/**
 * Search by colour (issue 17, plan §8; by family since issue 39): an item's colours and colour
 * families are its cover upload's, copied by refreshFileSummary; the folder listing and the global
 * search find files whose picture is at least 15 % (8 % loose, 30 % tight) of the chosen colour's
 * family, and nothing the caller may not see. The colours and family shares are written as the
 * media job writes them (media_colours, media_colour_families), so this does not depend on the job;
 * colour-families.test.ts runs generated pictures through the job itself.
 */
describe('search by colour', () => {
  let w: ItemsWorld;
  let items: ItemsRepository;
  let folder: number;
  let folderPath: string;
  let designerId: number;
  let designPath: string;
  const ids: Record<string, number> = {};
  let uploadCounter = 0;

  /** A file of the designer's in the folder, with a finished upload carrying these colours. */
  const file = async (
    name: string,
    colours: Array<[hex: string, weight: number]>,
    options: { visibility?: 'shared' | 'private'; status?: UploadStatus; hidden?: boolean } = {},
  ) => {
    w.t.clock.advance(60_000);
    const id = await items.insertFile({
      type: ItemType.image,
      parent_id: folder,
      parentIdPath: `/${folder}/`,
      name,
      folder_path: folderPath,
      owner_id: designerId,
      dept_path: designPath,
      visibility: options.visibility ?? 'shared',
      created_at: w.t.clock.now(),
    });
    await upload(id, colours, options);
    ids[name] = id;
    return id;
  };

  const upload = async (
    itemId: number,
    colours: Array<[hex: string, weight: number]>,
    options: { status?: UploadStatus; hidden?: boolean } = {},
  ) => {
    uploadCounter += 1;
    const db = w.t.database.db;
    const { id } = await db
      .insertInto('uploads')
      .values({
        batch_num: 'colour-test',
        user_id: designerId,
        folder_id: folder,
        file_name: `c${uploadCounter}.jpg`,
        base_name: `c${uploadCounter}`,
        format: 'jpg',
        file_size: 1000,
        last_modified: null,
        storage_key: `colour/${uploadCounter}`,
        multipart_id: null,
        part_size: null,
        status: options.status ?? UploadStatus.done,
        error: null,
        art_num: null,
        expire_start_date: null,
        expire_end_date: null,
        item_id: itemId,
        width: 100,
        height: 100,
        thumb_key: `thumbs/colour-${uploadCounter}.jpg`,
        preview_key: null,
        play_key: null,
        play_status: null,
        page_count: null,
        hidden: options.hidden ?? false,
        created_at: w.t.clock.now(),
        updated_at: w.t.clock.now(),
        completed_at: w.t.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (colours.length > 0) {
      await db
        .insertInto('media_colours')
        .values(colours.map(([hex, weight], slot) => ({ upload_id: id, slot, weight, ...oklabOfHex(hex) })))
        .execute();
      const shares = new Map<number, number>();
      for (const [hex, weight] of colours)
        shares.set(colourFamilyOfHex(hex), (shares.get(colourFamilyOfHex(hex)) ?? 0) + weight);
      await db
        .insertInto('media_colour_families')
        .values([...shares].map(([family, share]) => ({ upload_id: id, family, share })))
        .execute();
    }
    await items.refreshFileSummary(itemId, w.t.clock.now());
    return id;
  };

  const colourRows = (itemId: number) =>
    w.t.database.db
      .selectFrom('item_colours')
      .selectAll()
      .where('item_id', '=', itemId)
      .orderBy('slot')
      .execute();

  const listed = async (token: string, colour: string, extra = '', where: number | 'all' = folder) => {
    const { status, body, listing } = await w.list(
      token,
      where,
      `&colour=${encodeURIComponent(colour)}${extra}`,
    );
    expect(status, JSON.stringify(body)).toBe(200);
    return listing.list.map((i) => i.name);
  };

  const search = (token: string, body: Record<string, unknown>, lang = 'en') =>
    post(w.t.app, w.api('global/search'), body, { token, lang });
  const found = async (token: string, body: Record<string, unknown>) => {
    const { status, body: envelope } = await search(token, body);
    expect(status, JSON.stringify(envelope)).toBe(200);
    return resultOf(endpoints.search, envelope).list.map((i) => i.name);
  };

  beforeAll(async () => {
    w = await createItemsWorld();
    items = new ItemsRepository(w.t.database.db);
    folder = await w.folder(w.designer, 'Colour shots');
    const row = await w.t.database.db
      .selectFrom('items')
      .select(['owner_id', 'dept_path', 'folder_path', 'name'])
      .where('id', '=', folder)
      .executeTakeFirstOrThrow();
    designerId = row.owner_id;
    designPath = row.dept_path;
    folderPath = `/${row.name}`;
    await file('red shoe', [
      ['#cc0000', 900],
      ['#ffffff', 100],
    ]);
    await file('blue shoe', [
      ['#0033cc', 900],
      ['#ffffff', 100],
    ]);
    // A speck of green (5 %) is not the picture's colour; two whites are one file.
    await file('white shoe', [
      ['#ffffff', 600],
      ['#eeeeee', 350],
      ['#00aa00', 50],
    ]);
    await file('private red', [['#cc0000', 900]], { visibility: 'private' });
    await file('binned red', [['#cc0000', 900]]);
    await file('unfinished red', [['#cc0000', 900]], { status: UploadStatus.uploading });
    await file('hidden red', [['#cc0000', 900]], { hidden: true });
    const binned = ids['binned red'];
    await w.t.database.db.updateTable('items').set({ state: 2 }).where('id', '=', binned!).execute();
  });
  afterAll(() => w.t.close());

  it("copies the cover upload's colours to the item, with their cells and the item's time", async () => {
    const red = ids['red shoe']!;
    const rows = await colourRows(red);
    const item = await w.t.database.db
      .selectFrom('items')
      .select('created_at')
      .where('id', '=', red)
      .executeTakeFirstOrThrow();
    const oklab = oklabOfHex('#cc0000');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      slot: 0,
      ...oklab,
      weight: 900,
      cell: colourCell(oklab.l, oklab.a, oklab.b),
    });
    for (const row of rows)
      expect(new Date(row.created_at).getTime()).toBe(new Date(item.created_at).getTime());
    const families = await w.t.database.db
      .selectFrom('item_colour_families')
      .select(['family', 'share', 'created_at'])
      .where('item_id', '=', red)
      .orderBy('family')
      .execute();
    expect(families.map((f) => [f.family, f.share])).toEqual([
      [ColourFamily.red, 900],
      [ColourFamily.white, 100],
    ]);
    expect(new Date(families[0]!.created_at).getTime()).toBe(new Date(item.created_at).getTime());
    // Unfinished and hidden records are no cover: those items have no colours.
    expect(await colourRows(ids['unfinished red']!)).toEqual([]);
    expect(await colourRows(ids['hidden red']!)).toEqual([]);
  });

  it('replaces the colours when the cover changes, and clears them when no cover is left', async () => {
    const id = await file('repainted', [['#cc0000', 900]]);
    expect((await colourRows(id)).map((r) => r.weight)).toEqual([900]);
    w.t.clock.advance(1000);
    const newer = await upload(id, [
      ['#0033cc', 700],
      ['#ffffff', 300],
    ]);
    expect((await colourRows(id)).map((r) => [r.slot, r.l, r.weight])).toEqual([
      [0, oklabOfHex('#0033cc').l, 700],
      [1, 1000, 300],
    ]);
    // A cover without colours (the job found none): the item has none.
    w.t.clock.advance(1000);
    await upload(id, []);
    expect(await colourRows(id)).toEqual([]);
    // No cover at all.
    await w.t.database.db.updateTable('uploads').set({ hidden: true }).where('item_id', '=', id).execute();
    await w.t.database.db.updateTable('uploads').set({ hidden: false }).where('id', '=', newer).execute();
    await items.refreshFileSummary(id, w.t.clock.now());
    expect((await colourRows(id)).map((r) => r.weight)).toEqual([700, 300]);
    await w.t.database.db.updateTable('uploads').set({ thumb_key: null }).where('item_id', '=', id).execute();
    await items.refreshFileSummary(id, w.t.clock.now());
    expect(await colourRows(id)).toEqual([]);
    await w.t.database.db.updateTable('items').set({ state: 2 }).where('id', '=', id).execute();
  });

  it('filters a folder listing by colour family: red finds red, not blue', async () => {
    expect(await listed(w.designer, '#cc0000')).toEqual(['private red', 'red shoe']);
    // Any shade of the family: a salmon swatch, a dark red.
    expect(await listed(w.designer, '#fa8072')).toEqual(['private red', 'red shoe']);
    expect(await listed(w.designer, '#8b0000')).toEqual(['private red', 'red shoe']);
    expect(await listed(w.designer, '#0033CC')).toEqual(['blue shoe']);
    expect(await listed(w.designer, '#87ceeb')).toEqual(['blue shoe']);
    // 10 % of white is under the normal 15 %; a speck of 5 % green never counts.
    expect(await listed(w.designer, '#ffffff')).toEqual(['white shoe']);
    expect(await listed(w.designer, '#ffffff', '&colourTolerance=loose')).toEqual([
      'white shoe',
      'blue shoe',
      'red shoe',
    ]);
    expect(await listed(w.designer, '#00aa00')).toEqual([]);
    expect(await listed(w.designer, '#00aa00', '&colourTolerance=loose')).toEqual([]);
    // By name too (the probe along the name order), and from the top level: folders have no colours.
    expect(await listed(w.designer, '#cc0000', '&rankStatus=1')).toEqual(['private red', 'red shoe']);
    expect(await listed(w.designer, '#cc0000', '', 'all')).toEqual([]);
    // Without a colour, everything live is listed as before.
    expect(await w.names(w.designer, folder)).toEqual(
      expect.arrayContaining(['red shoe', 'blue shoe', 'white shoe', 'unfinished red']),
    );
  });

  it('lists a big folder by walking the colour index: the same files, in the same order', async () => {
    const viewer = { userId: designerId, view: { kind: 'subtree' as const, pathPrefix: designPath } };
    for (const hex of ['#cc0000', '#ffffff', '#0033cc', '#00aa00']) {
      const colour = colourFilterOf(hex, 'normal');
      const names = async (colourWalk: boolean, offset = 0, limit = 50) =>
        (await items.listChildren(folder, viewer, { colour, colourWalk }, 'normal', limit, offset)).map(
          (row) => row.name,
        );
      expect(await names(true), hex).toEqual(await names(false));
      expect(await names(true), hex).toEqual(await listed(w.designer, hex));
    }
    // Paged: one row per file though the white shoe has two whites.
    const white = colourFilterOf('#fafafa', 'loose');
    const page = async (offset: number) =>
      (
        await items.listChildren(folder, viewer, { colour: white, colourWalk: true }, 'normal', 2, offset)
      ).map((row) => row.name);
    expect([...(await page(0)), ...(await page(2))]).toEqual(['white shoe', 'blue shoe', 'red shoe']);
    expect(await items.countChildrenUpTo(folder, 3)).toBe(3);
    // What the listing weighs against the folder's size: items of the family, bounded.
    expect(await items.countColourEntriesUpTo(colourFilterOf('#fafafa', 'loose'), 2)).toBe(2);
    const green = colourFilterOf('#00aa00', 'normal');
    expect(await items.countColourEntriesUpTo(green, 1_000)).toBe(0);
  });

  it('widens with the tolerance: 30 %, 15 %, 8 % of the picture', async () => {
    const id = await file('red accent', [
      ['#1565c0', 780],
      ['#b22222', 220],
    ]);
    expect(await listed(w.designer, '#cc0000', '&colourTolerance=tight')).toEqual([
      'private red',
      'red shoe',
    ]);
    expect(await listed(w.designer, '#cc0000')).toEqual(['red accent', 'private red', 'red shoe']);
    expect(await found(w.designer, { searchType: 1, colour: '#cc0000', colourTolerance: 'tight' })).toEqual([
      'private red',
      'red shoe',
    ]);
    expect(await found(w.designer, { searchType: 1, colour: '#ff6666', colourTolerance: 'loose' })).toEqual([
      'red accent',
      'private red',
      'red shoe',
    ]);
    await w.t.database.db.updateTable('items').set({ state: 2 }).where('id', '=', id).execute();
  });

  it('searches by a colour alone, newest first, and by a name with a colour', async () => {
    expect(await found(w.designer, { searchType: 1, colour: '#cc0000' })).toEqual([
      'private red',
      'red shoe',
    ]);
    expect(await found(w.designer, { searchType: 2, query: '', colour: '#0033cc' })).toEqual(['blue shoe']);
    expect(await found(w.designer, { searchType: 1, colour: '#ffffff' })).toEqual(['white shoe']);
    // Each file once, though two of its colours are of the family (two whites).
    expect(await found(w.designer, { searchType: 1, colour: '#fafafa', colourTolerance: 'loose' })).toEqual([
      'white shoe',
      'blue shoe',
      'red shoe',
    ]);
    expect(await found(w.designer, { searchType: 1, query: 'shoe', colour: '#cc0000' })).toEqual([
      'red shoe',
    ]);
    expect(
      await found(w.designer, { searchType: 1, query: 'shoe', colour: '#cc0000', rankStatus: '1' }),
    ).toEqual(['red shoe']);
    expect(await found(w.designer, { searchType: 1, colour: '#cc0000', rankStatus: '2' })).toEqual([
      'red shoe',
      'private red',
    ]);
    expect(await found(w.designer, { searchType: 1, query: 'blue', colour: '#cc0000' })).toEqual([]);
    // Scopes still apply: no folder has a colour, videos are not images.
    expect(await found(w.designer, { searchType: 1, colour: '#cc0000', fileType: 1 })).toEqual([]);
    expect(await found(w.designer, { searchType: 1, colour: '#cc0000', fileType: 3 })).toEqual([]);
    // Paging through the merged walk.
    const page = (pageNo: number) =>
      search(w.designer, {
        searchType: 1,
        colour: '#ffffff',
        colourTolerance: 'loose',
        pageSize: 2,
        pageNo,
      }).then(({ body }) => resultOf(endpoints.search, body));
    const [first, second] = [await page(1), await page(2)];
    expect(first.hasMore).toBe(true);
    expect(second.hasMore).toBe(false);
    expect([...first.list, ...second.list].map((i) => i.name)).toEqual([
      'white shoe',
      'blue shoe',
      'red shoe',
    ]);
    // A batch of titles with a colour: a title found only in another colour is unmatched.
    const { body } = await search(w.designer, {
      searchType: 4,
      nameList: ['red shoe', 'blue shoe'],
      colour: '#cc0000',
    });
    const batch = resultOf(endpoints.search, body);
    expect(batch.list.map((i) => i.name)).toEqual(['red shoe']);
    expect(batch.unmatched).toEqual(['blue shoe']);
  });

  it('never shows a colour of an item the caller may not see', async () => {
    // The administrator sees every shared file, not the designer's private one; the bin, an
    // unfinished upload and a hidden record never count.
    expect(await found(w.admin, { searchType: 1, colour: '#cc0000' })).toEqual(['red shoe']);
    expect(await listed(w.admin, '#cc0000')).toEqual(['red shoe']);
    // Another department's shared files are outside a "self and below" view scope.
    expect(await found(w.sales, { searchType: 1, colour: '#cc0000' })).toEqual([]);
    expect(await found(w.sales, { searchType: 1, colour: '#ffffff' })).toEqual([]);
    const { status, body } = await w.list(w.sales, folder, '&colour=%23cc0000');
    expect(status).toBe(404);
    expect(body.success).toBe(false);
  });

  it("refuses a colour that is not #rrggbb, in the caller's language, and does nothing else", async () => {
    const logs = async () =>
      Number(
        (await sql<{ n: string }>`SELECT count(*) AS n FROM operation_logs`.execute(w.t.database.db)).rows[0]
          ?.n,
      );
    const before = await logs();
    for (const colour of ['red', '#12345', '#cc00001', 'cc0000']) {
      for (const [lang, message] of [
        ['en', 'a colour must be #RRGGBB'],
        ['zh', '颜色须为 #RRGGBB 格式'],
      ] as const) {
        const listing = await w.t.app.inject({
          method: 'GET',
          url: w.api(`file/all-file-v2?folderDataId=${folder}&colour=${encodeURIComponent(colour)}`),
          headers: { token: w.designer, lang },
        });
        expect(listing.statusCode, colour).toBe(400);
        expect(listing.json()).toMatchObject({ success: false, errorCode: 'SE_400' });
        expect(listing.json().errorDesc).toContain(message);
        const searched = await search(w.designer, { searchType: 1, query: 'shoe', colour }, lang);
        expect(searched.status, colour).toBe(400);
        expect(searched.body.errorCode).toBe('SE_400');
        expect(searched.body.errorDesc).toContain(message);
      }
    }
    const tolerance = await search(w.designer, { searchType: 1, colour: '#cc0000', colourTolerance: 'huge' });
    expect(tolerance.status).toBe(400);
    expect(tolerance.body.errorDesc).toContain('colourTolerance');
    // A colour does not make a batch search of nothing valid, and an empty search stays refused.
    expect((await search(w.designer, { searchType: 3, colour: '#cc0000' })).status).toBe(400);
    expect((await search(w.designer, { searchType: 1, query: '' })).status).toBe(400);
    expect(await logs()).toBe(before);
  });
});
