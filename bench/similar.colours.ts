// bench/similar.ts's colour measures (4.): the colour filter of a folder listing, in the big folder
// (the family index walked) and the side one (a probe per row), and the colour search, for a
// common, a rare and two ordinary colours; the plans of the walk and the probe are printed.
import { execFileSync } from 'node:child_process';
import { COLOUR_MIN_SHARES, colourFamilyOfHex, endpointPath, endpoints } from '@dam/contract';
import { sql } from 'kysely';
import { COLOUR_GOAL_MS, fmt, type PhaseContext, sample } from './similar.measure';
import type { SeededArchive } from './similar.seed';

const COLOURS = { common: '#ffffff', rare: '#ff00ff', green: '#2e7d32', red: '#cc0000' } as const;
/** From this many children a colour filter walks the colour index (items/repository.ts COLOUR_WALK_FOLDER_SIZE). */
const COLOUR_WALK_FOLDER_SIZE = 100_000;
/** The server code the colour measures time: the report says when it was not committed. */
const COLOUR_CODE = [
  'server/src/modules/items/colour-filter.ts',
  'server/src/modules/items/repository.ts',
  'server/src/modules/items/queries.repository.ts',
  'server/src/modules/items/service.ts',
  'server/src/modules/search/repository.ts',
  'server/src/modules/search/service.ts',
];

function committed(paths: string[]): boolean {
  try {
    execFileSync('git', ['diff', '--quiet', 'HEAD', '--', ...paths], { stdio: 'ignore' });
    execFileSync('git', ['ls-files', '--error-unmatch', ...paths], { stdio: 'ignore' });
    const untracked = execFileSync('git', ['ls-files', '--others', '--exclude-standard', '--', ...paths], {
      encoding: 'utf8',
    });
    return untracked.trim() === '';
  } catch {
    return false;
  }
}

/** The colour filter and the colour search for every colour of COLOURS. */
export async function measureColours(
  ctx: PhaseContext,
  archive: SeededArchive,
  items: number,
): Promise<void> {
  // 4. Colour filter of a folder listing and colour search, common and rare colours.
  const colourCommitted = committed(COLOUR_CODE);
  if (!colourCommitted)
    ctx.notes.push(
      'the colour filter and colour search were timed from the working tree: their server code (modules/items, modules/search) was not committed yet at the time of the run',
    );
  for (const [which, hex] of Object.entries(COLOURS)) await measureColour(ctx, archive, items, which, hex);
}

async function measureColour(
  ctx: PhaseContext,
  archive: SeededArchive,
  items: number,
  which: string,
  hex: string,
): Promise<void> {
  const { db, api, measure, notes, admin, scopedToken, total } = ctx;
  const { big, side, sideItems } = archive;
  const listingUrl = endpointPath(endpoints.folderListingByBody);
  const searchUrl = endpointPath(endpoints.search);
  // The colour family of the swatch, at the normal tolerance (15 % of the picture, issue 39).
  const family = colourFamilyOfHex(hex);
  const minShare = COLOUR_MIN_SHARES.normal;
  const ofFamily = (alias: string) =>
    sql.raw(`${alias}.family = ${family} AND ${alias}.share >= ${minShare}`);
  const matching = Number(
    (
      await sql<{
        n: string;
      }>`SELECT count(*) AS n FROM item_colour_families f WHERE ${ofFamily('f')}`.execute(db)
    ).rows[0]?.n,
  );
  const share = `${matching.toLocaleString('en')} files (${((100 * matching) / total).toFixed(2)} %) match`;
  notes.push(
    `${which} colour ${hex} (family ${family}, at least ${minShare / 10} % of the picture): ${share}`,
  );
  const walk = (folder: number | null) => sql`
    SELECT x.item_id
    FROM (SELECT f.item_id, f.created_at FROM item_colour_families f WHERE ${ofFamily('f')}
      ORDER BY f.created_at DESC, f.item_id DESC) x
    JOIN items i ON i.id = x.item_id AND i.state = 1 ${folder === null ? sql`` : sql`AND i.parent_id = ${folder}`}
    ORDER BY x.created_at DESC, x.item_id DESC LIMIT 51`;
  const probe = (folder: number) => sql`
    SELECT i.id FROM items i WHERE i.parent_id = ${folder} AND i.state = 1
      AND EXISTS (SELECT 1 FROM item_colour_families f WHERE f.item_id = i.id AND ${ofFamily('f')})
    ORDER BY (i.type <> 1), i.created_at DESC, i.id DESC LIMIT 51`;
  if (which === 'common' || which === 'rare')
    for (const [label, query] of [
      ['walk', walk(null)],
      ['probe', probe(side.id)],
    ] as const) {
      const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN (ANALYZE, BUFFERS) ${query}`.execute(db);
      console.log(`\n${which} colour ${hex}, ${label}:\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
    }
  // Is the filter applied (every file listed is of the family)?
  const unfiltered = async (result: unknown) => {
    const ids = (result as { list: Array<{ id: number }> }).list.map((item) => item.id);
    if (ids.length === 0) return 0;
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM unnest(${ids}::bigint[]) AS x(id)
      WHERE NOT EXISTS (SELECT 1 FROM item_colour_families f WHERE f.item_id = x.id AND ${ofFamily('f')})`.execute(
      db,
    );
    return Number(rows[0]?.n);
  };
  for (const [folderName, folder, count, bare] of [
    ['big', big.id, items, walk(big.id)],
    ['side', side.id, sideItems, probe(side.id)],
  ] as const) {
    const list = () =>
      api(admin, 'POST', `${listingUrl}?pageNo=1&pageSize=50`, {
        folderDataId: folder,
        rankStatus: '0',
        colour: hex,
      });
    const wrong = await unfiltered(await list());
    // What the listing pays to choose its branch: counting the folder's children up to the threshold.
    const counting = await sample(() =>
      sql`SELECT count(*) FROM (SELECT 1 FROM items WHERE parent_id = ${folder} AND state = 1
        LIMIT ${COLOUR_WALK_FOLDER_SIZE}::int) c`.execute(db),
    );
    const countNote = `counting its children up to ${COLOUR_WALK_FOLDER_SIZE.toLocaleString('en')} alone: median ${fmt(counting.median)} ms`;
    await measure(
      `folder listing of ${count.toLocaleString('en')} files, ${which} colour ${hex}: first page`,
      list,
      folderName === 'big' ? 'family index range, page' : 'probe per row of the folder, page',
      () => bare.execute(db),
      {
        goalMs: COLOUR_GOAL_MS,
        note: wrong > 0 ? `NOT FILTERED: ${wrong} of the page lack the colour; ${countNote}` : countNote,
      },
    );
  }
  for (const [who, token] of [
    ['administrator', admin],
    ['department scope', scopedToken],
  ] as const) {
    const search = () => api(token, 'POST', searchUrl, { searchType: 1, colour: hex, pageSize: 50 });
    const wrong = await unfiltered(await search());
    await measure(
      `colour search (colour alone), ${which} colour ${hex}, ${who}: first page`,
      search,
      'family index range, page',
      () => walk(null).execute(db),
      {
        goalMs: COLOUR_GOAL_MS,
        ...(wrong > 0 ? { note: `NOT FILTERED: ${wrong} of the page lack the colour` } : {}),
      },
    );
  }
}
