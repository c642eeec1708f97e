import { FingerprintStatusCode } from '@dam/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadFiles } from '../../test/factories';
import { ADMIN, createTestApp, signIn, type TestApp } from '../../test/harness';
import { ItemsRepository } from '../modules/items/repository';
import { FingerprintsRepository } from '../modules/similar/fingerprints.repository';
import { createStorage } from '../storage/index';
import { FingerprintBackfill } from './fingerprint-backfill';

/** A picture with some structure, different per seed. */
function picture(seed: number) {
  const shapes = Array.from({ length: 6 }, (_, i) => {
    const x = (seed * 97 + i * 131) % 700;
    const y = (seed * 53 + i * 211) % 500;
    const hue = (seed * 47 + i * 60) % 360;
    return `<rect x="${x}" y="${y}" width="${120 + ((seed + i) % 5) * 30}" height="${90 + i * 15}" fill="hsl(${hue},70%,50%)"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="800" height="600" fill="#f4f1ea"/>${shapes}</svg>`;
  return sharp(Buffer.from(svg)).jpeg().toBuffer();
}

describe('fingerprint back-fill of files uploaded before issue 17', { timeout: 120_000 }, () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ SESSION_IDLE_HOURS: '720' }, { jobs: true });
    token = await signIn(t.app, ADMIN.email, ADMIN.password);
  });
  afterAll(() => t.close());

  it('fingerprints every finished upload once, a batch at a time, from its thumbnail, saying how far it is', async () => {
    const ids: number[] = [];
    for (let seed = 1; seed <= 7; seed += 1) {
      const [id] = await uploadFiles(t, token, [{ fileName: `old-${seed}.jpg`, bytes: await picture(seed) }]);
      await t.jobs!.mediaDone(id!);
      ids.push(id!);
    }
    const db = t.database.db;
    // As before issue 17: the media job made thumbnails, nobody made fingerprints.
    const made = await db
      .selectFrom('media_fingerprints')
      .select(['upload_id', 'status'])
      .where('upload_id', 'in', ids)
      .orderBy('upload_id')
      .execute();
    expect(made.map((row) => row.status)).toEqual(ids.map(() => FingerprintStatusCode.ready));
    await db.deleteFrom('media_fingerprints').where('upload_id', 'in', ids).execute();
    await db.deleteFrom('media_colours').where('upload_id', 'in', ids).execute();
    // One thumbnail is gone from the store: that file fails, the rest go on.
    const lost = await db
      .selectFrom('uploads')
      .select('thumb_key')
      .where('id', '=', ids[3]!)
      .executeTakeFirstOrThrow();
    const storage = createStorage(t.config, () => '');
    await storage.delete(lost.thumb_key!);

    const updatedBefore = await db
      .selectFrom('uploads')
      .innerJoin('items', 'items.id', 'uploads.item_id')
      .select(['items.id', 'items.updated_at'])
      .where('uploads.id', 'in', ids)
      .orderBy('items.id')
      .execute();
    const lines: string[] = [];
    const warnings: string[] = [];
    const stored: number[] = [];
    const backfill = () =>
      new FingerprintBackfill(
        {
          fingerprints: new FingerprintsRepository(db),
          items: new ItemsRepository(db),
          storage,
          stored: async (id) => {
            stored.push(id);
          },
          info: (_details, message) => lines.push(message),
          warn: (_details, message) => warnings.push(message),
          now: () => new Date(),
        },
        3,
      );
    // A first process does two batches and stops; a second one (a restart) finishes.
    const first = backfill();
    expect(await first.runBatch()).toBe(true);
    expect(await first.runBatch()).toBe(true);
    const second = backfill();
    while (await second.runBatch()) {
      // next batch
    }
    const rows = await db
      .selectFrom('media_fingerprints')
      .select(['upload_id', 'status'])
      .where('upload_id', 'in', ids)
      .orderBy('upload_id')
      .execute();
    expect(rows.map((row) => row.status)).toEqual(
      ids.map((id) => (id === ids[3] ? FingerprintStatusCode.failed : FingerprintStatusCode.ready)),
    );
    // Each file once; the one that failed is not stored as a pair source.
    expect(stored.filter((id) => ids.includes(id)).sort((a, b) => a - b)).toEqual(
      ids.filter((id) => id !== ids[3]),
    );
    expect(warnings.some((message) => message.startsWith('fingerprint back-fill:'))).toBe(true);
    expect(
      lines.some((message) => /^fingerprint back-fill: [\d,]+ of [\d,]+ \(\d+\.\d %\)/.test(message)),
    ).toBe(true);
    expect(lines.at(-1)).toBe('fingerprint back-fill: done');
    const colours = await db
      .selectFrom('media_colours')
      .select('upload_id')
      .where('upload_id', '=', ids[0]!)
      .execute();
    expect(colours.length).toBeGreaterThan(0);
    // The files' "updated" times are people's changes, not the back-fill's.
    const updatedAfter = await db
      .selectFrom('items')
      .select(['id', 'updated_at'])
      .where(
        'id',
        'in',
        updatedBefore.map((row) => row.id),
      )
      .orderBy('id')
      .execute();
    expect(updatedAfter).toEqual(updatedBefore);
    // Nothing left but the file that failed, tried again by a new run: it fails alike, and that is all.
    expect(await backfill().runBatch()).toBe(false);
  });
});
