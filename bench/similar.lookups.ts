// bench/similar.ts's near-duplicate lookups: the query material (random hashes; base hashes with
// 1 bit flipped and their base's colours), then 1. similarCheck of 1 file, 2. of 200 files,
// 3. a file's similar images; and the plans of a lookup and of a file's colour neighbours.
import { randomBytes } from 'node:crypto';
import {
  COLOUR_TOLERANCES,
  colourCell,
  endpointPath,
  endpoints,
  type PaletteColour,
  SIMILAR_CHECK_MAX_FILES,
  signedToHash,
} from '@dam/contract';
import { sql } from 'kysely';
import type { Db } from '../server/src/db/database';
import type { Viewer } from '../server/src/modules/access/visibility.repository';
import type { SimilarRepository } from '../server/src/modules/similar/repository';
import { fmt, type PhaseContext, RUNS, sample } from './similar.measure';
import { BASES } from './similar.seed';

/** The server's defaults (config.ts SIMILAR_MAX_DISTANCE; service.ts LOOKUP_ROWS, LOOKUP_CONCURRENCY). */
const MAX_DISTANCE = 10;
const LOOKUP_ROWS = 50;
const LOOKUP_CONCURRENCY = 4;
export const ADMIN_VIEWER: Viewer = { userId: 1, view: { kind: 'all' } };

const randomHash = () => randomBytes(8).toString('hex');
/** `hex` with bit `bit` flipped. */
const flip = (hex: string, bit: number) =>
  (BigInt(`0x${hex}`) ^ (1n << BigInt(bit))).toString(16).padStart(16, '0');
/** `work` over `values`, `size` at a time (as the service's lookups run). */
async function inBatches<T>(values: T[], size: number, work: (value: T) => Promise<unknown>) {
  for (let start = 0; start < values.length; start += size)
    await Promise.all(values.slice(start, start + size).map(work));
}

type QueryFile = { hash: string; colours: PaletteColour[] };
/** A file of the archive: its item, its upload and that upload's hash. */
type ArchiveFile = { item: number; upload: number; hash: string };

interface QueryMaterial {
  /** Run `i`'s base hash with 1 bit flipped, with its base's colours. */
  clumped: (i: number) => QueryFile;
  /** Run `i`'s random hash. */
  random: (i: number) => QueryFile;
  someColours: PaletteColour[];
}

/** The query material: random hashes; base hashes (1 bit flipped) with their base's colours. */
async function queryMaterial(db: Db, repo: SimilarRepository): Promise<QueryMaterial> {
  const bases = (
    await sql<{ k: number; hash: string }>`
      SELECT k, ((hashint4(2 * k + 1)::bigint << 32) | (hashint4(2 * k + 2)::bigint & 4294967295))::text AS hash
      FROM generate_series(1, ${BASES - 1}::int) k ORDER BY k`.execute(db)
  ).rows.map((row) => ({ k: Number(row.k), hash: signedToHash(row.hash) }));
  const palettes = await repo.palettes(bases.map((b) => 10 * b.k));
  const clumped = (i: number) => {
    const b = bases[(i + 1 + bases.length * 4) % bases.length] as { k: number; hash: string };
    return { hash: flip(b.hash, (i + 64) % 64), colours: palettes.get(10 * b.k) ?? [] };
  };
  const someColours: PaletteColour[] = [
    { l: 950, a: 0, b: 0, w: 400 },
    { l: 500, a: 100, b: 50, w: 250 },
    { l: 300, a: -50, b: -80, w: 150 },
  ];
  const randoms = Array.from({ length: RUNS + 1 }, () => randomHash());
  const random = (i: number) => ({ hash: randoms[i + 1] as string, colours: someColours });
  return { clumped, random, someColours };
}

/** Files of the archive by upload id: among near copies (ids divisible by 10) or not. */
async function filesOfUploads(db: Db, uploadIds: number[]): Promise<ArchiveFile[]> {
  return (
    await sql<{ id: number; item_id: number; hash: string }>`
      SELECT u.id, u.item_id, f.hash::text AS hash FROM uploads u JOIN media_fingerprints f ON f.upload_id = u.id
      WHERE u.id = ANY(${uploadIds}::bigint[]) ORDER BY u.id`.execute(db)
  ).rows.map((row) => ({
    item: Number(row.item_id),
    upload: Number(row.id),
    hash: signedToHash(row.hash),
  }));
}

/** What the plans after the colour measures look up again. */
export interface LookupSamples {
  clumped: (i: number) => QueryFile;
  clumpedFiles: ArchiveFile[];
}

/** Measures 1–3 (similarCheck of 1 and 200 files, a file's similar images) and notes what a lookup finds. */
export async function measureLookups(ctx: PhaseContext): Promise<LookupSamples> {
  const { db, repo, api, measure, notes, admin, scopedToken, total } = ctx;
  const { clumped, random, someColours } = await queryMaterial(db, repo);
  const checkUrl = endpointPath(endpoints.similarCheck);
  const resetLimit = () => sql`DELETE FROM rate_limit_counters`.execute(db);
  const check = (token: string, files: QueryFile[]) =>
    api(token, 'POST', checkUrl, { files: files.map((file, key) => ({ key: String(key), ...file })) });
  const bareLookup = (hash: string) => repo.lookup(hash, MAX_DISTANCE, null, LOOKUP_ROWS);

  // How many hits a clumped query finds (the heavy case), for the record.
  const hitsOfClumped = (await bareLookup(clumped(0).hash)).length;
  const found = (await check(admin, [clumped(0)])) as { list: Array<{ items: unknown[] }> };
  notes.push(
    `a clumped query finds ${hitsOfClumped} uploads within ${MAX_DISTANCE} bits (LIMIT ${LOOKUP_ROWS}) and the check answers ${found.list[0]?.items.length ?? 0} items; a random one finds ${(await bareLookup(random(0).hash)).length}`,
  );

  // 1. similarCheck, 1 hash.
  for (const [who, token] of [
    ['administrator', admin],
    ['department scope', scopedToken],
  ] as const) {
    for (const [what, file] of [
      ['random hash', random],
      [`clumped hash (~${Math.round(total / 10 / BASES)} near copies)`, clumped],
    ] as const) {
      if (who !== 'administrator' && file === random) continue;
      await measure(
        `similar-check, 1 file, ${what}, ${who}`,
        (i) => check(token, [file(i)]),
        'the lookup query alone',
        (i) => bareLookup(file(i).hash),
        { before: resetLimit },
      );
    }
  }
  // 2. similarCheck, 200 hashes (a tenth clumped, as the archive), per lookup.
  const batch = (i: number) =>
    Array.from({ length: SIMILAR_CHECK_MAX_FILES }, (_, j) =>
      j % 10 === 0 ? clumped(i * 20 + j / 10) : { hash: randomHash(), colours: someColours },
    );
  const batches = Array.from({ length: RUNS + 1 }, (_, i) => batch(i - 1));
  await measure(
    `similar-check, ${SIMILAR_CHECK_MAX_FILES} files (a tenth clumped), per lookup`,
    (i) => check(admin, batches[i + 1] as ReturnType<typeof batch>),
    `${SIMILAR_CHECK_MAX_FILES} lookup queries, ${LOOKUP_CONCURRENCY} at a time`,
    (i) =>
      inBatches(batches[i + 1] as ReturnType<typeof batch>, LOOKUP_CONCURRENCY, (f) => bareLookup(f.hash)),
    { per: SIMILAR_CHECK_MAX_FILES, before: resetLimit },
  );

  // 3. similarOfFile: a file among near copies, and one without.
  const ofFileUrl = endpointPath(endpoints.similarOfFile);
  const clumpedFiles = await filesOfUploads(
    db,
    Array.from({ length: RUNS + 1 }, (_, i) => 10 * (i * 37 + 5)),
  );
  const randomFiles = await filesOfUploads(
    db,
    Array.from({ length: RUNS + 1 }, (_, i) => 10 * (i * 41 + 3) + 7),
  );
  const byColourOf = async (file: { item: number }) => {
    const palette = await repo.itemPalette(file.item);
    const cells = [...new Set(palette.slice(0, 2).map((c) => colourCell(c.l, c.a, c.b)))];
    await repo.byColour(
      palette,
      cells,
      { viewer: ADMIN_VIEWER, excludeItemIds: [file.item] },
      COLOUR_TOLERANCES.loose,
      20,
    );
  };
  const bareOfFile = async (file: ArchiveFile) => {
    await bareLookup(file.hash);
    await byColourOf(file);
  };
  for (const [what, list] of [
    ['among near copies', clumpedFiles],
    ['with no near copy', randomFiles],
  ] as const) {
    const file = (i: number) => list[i + 1] as (typeof list)[number];
    // The share of the colour neighbours ("same colours", the ranked 2,000 candidates) in it.
    const colourPart = await sample((i) => byColourOf(file(i)));
    await measure(
      `a file's similar images, ${what}`,
      (i) => api(admin, 'GET', `${ofFileUrl}?folderDataId=${file(i).item}`),
      'its lookup and colour-neighbour queries',
      (i) => bareOfFile(file(i)),
      { note: `of which the colour-neighbour query alone: median ${fmt(colourPart.median)} ms` },
    );
  }
  return { clumped, clumpedFiles };
}

/** The plans of the two lookups (printed, not written): a clumped hash, and a file's colour neighbours. */
export async function explainLookups(db: Db, repo: SimilarRepository, samples: LookupSamples): Promise<void> {
  const explain = async (label: string, query: unknown) => {
    const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN (ANALYZE, COSTS off) ${query}`.execute(db);
    console.log(`plan, ${label}:\n${rows.map((row) => `  ${row['QUERY PLAN']}`).join('\n')}`);
  };
  await explain(
    'lookup of a clumped hash (administrator)',
    repo.lookupQuery(
      samples.clumped(0).hash,
      MAX_DISTANCE,
      { viewer: ADMIN_VIEWER, excludeItemIds: [] },
      LOOKUP_ROWS,
    ),
  );
  const sampleFile = samples.clumpedFiles[1] as ArchiveFile;
  const samplePalette = await repo.itemPalette(sampleFile.item);
  await explain(
    "a file's colour neighbours (byColour)",
    repo.colourCandidatesQuery(
      [...new Set(samplePalette.slice(0, 2).map((c) => colourCell(c.l, c.a, c.b)))],
      {
        viewer: ADMIN_VIEWER,
        excludeItemIds: [sampleFile.item],
      },
    ),
  );
}
