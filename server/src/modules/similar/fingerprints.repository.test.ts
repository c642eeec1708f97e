import { FingerprintStatusCode } from '@dam/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadFiles } from '../../../test/factories';
import { ADMIN, createTestApp, signIn, type TestApp } from '../../../test/harness';
import { FingerprintsRepository } from './fingerprints.repository';

const colour = (l: number, w: number) => ({ l, a: 10, b: -20, w });

describe('stored fingerprints: a job that runs again replaces its own row, colours and pairs', () => {
  let t: TestApp;
  let ids: number[];
  beforeAll(async () => {
    // No job queue: the rows here are the test's own, not a media job's.
    t = await createTestApp();
    const token = await signIn(t.app, ADMIN.email, ADMIN.password);
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c04040' } })
      .jpeg()
      .toBuffer();
    ids = await uploadFiles(t, token, [
      { fileName: 'fp-a.jpg', bytes: jpeg },
      { fileName: 'fp-b.jpg', bytes: jpeg },
    ]);
  });
  afterAll(() => t.close());

  const stored = async (uploadId: number) => {
    const db = t.database.db;
    const row = await db
      .selectFrom('media_fingerprints')
      .select(['status', 'reason', (eb) => eb.cast<string | null>('hash', 'text').as('hash')])
      .where('upload_id', '=', uploadId)
      .executeTakeFirst();
    const colours = await db
      .selectFrom('media_colours')
      .select(['slot', 'l', 'weight'])
      .where('upload_id', '=', uploadId)
      .orderBy('slot')
      .execute();
    const pairs = await db
      .selectFrom('near_duplicate_pairs')
      .select(['upload_a', 'upload_b'])
      .where((eb) => eb.or([eb('upload_a', '=', uploadId), eb('upload_b', '=', uploadId)]))
      .execute();
    return { row, colours, pairs };
  };

  it('keeps only the latest hash and colours, drops the pairs of the earlier one, and a status clears both', async () => {
    const [a, b] = ids as [number, number];
    const repo = new FingerprintsRepository(t.database.db);
    await repo.save(a, {
      status: 'ready',
      hash: '00000000000000ff',
      colours: [colour(500, 600), colour(300, 300), colour(800, 100)],
    });
    await repo.save(b, { status: 'ready', hash: '00000000000000fe', colours: [colour(510, 1000)] });
    await t.database.db
      .insertInto('near_duplicate_pairs')
      .values({ upload_a: a, upload_b: b, distance: 1, colour_distance: 0 })
      .execute();
    expect((await stored(a)).colours).toEqual([
      { slot: 0, l: 500, weight: 600 },
      { slot: 1, l: 300, weight: 300 },
      { slot: 2, l: 800, weight: 100 },
    ]);

    // Again, with a new hash and fewer colours: the third slot goes, the pair found before goes.
    await repo.save(a, {
      status: 'ready',
      hash: '0000000000000f00',
      colours: [colour(700, 900), colour(200, 100)],
    });
    let now = await stored(a);
    expect(now.row).toMatchObject({ status: FingerprintStatusCode.ready, hash: String(0xf00) });
    expect(now.colours).toEqual([
      { slot: 0, l: 700, weight: 900 },
      { slot: 1, l: 200, weight: 100 },
    ]);
    expect(now.pairs).toEqual([]);
    // The other file of the pair keeps its own fingerprint.
    expect((await stored(b)).colours).toEqual([{ slot: 0, l: 510, weight: 1000 }]);

    // A reason instead of a hash: no hash, no colours.
    await repo.saveStatus(a, 'failed', 'x'.repeat(300));
    now = await stored(a);
    expect(now.row).toMatchObject({ status: FingerprintStatusCode.failed, hash: null });
    expect(now.row?.reason).toHaveLength(200);
    expect(now.colours).toEqual([]);
  });
});
