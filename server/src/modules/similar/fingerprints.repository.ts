import {
  type FamilyShare,
  FINGERPRINT_ALGO,
  type FingerprintResult,
  type FingerprintStatus,
  FingerprintStatusCode,
  hashToSigned,
  type PaletteColour,
  PreviewStatus,
  UploadStatus,
} from '@dam/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** An upload the back-fill has still to fingerprint. */
export interface UnfingerprintedUpload {
  id: number;
  format: string;
  thumb_key: string;
  item_id: number | null;
  width: number | null;
  height: number | null;
}

/** A stored status other than `ready` (which needs a hash) or `pending` (no row). */
export type UnhashedStatus = Exclude<FingerprintStatus, 'ready' | 'pending'>;

/**
 * Writes the fingerprints the media job and the back-fill make (issue 17). A job that runs twice
 * replaces its own row and colours, so it is harmless.
 */
export class FingerprintsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Stores a computed fingerprint: the hash and its colours, or the reason there is none, and the
   * picture's colour-family shares (a blank picture has them too).
   */
  async save(uploadId: number, result: FingerprintResult & { families?: FamilyShare[] }): Promise<void> {
    const families = result.families ?? [];
    if (result.status !== 'ready') {
      await this.store(uploadId, FingerprintStatusCode[result.status], null, null, [], families);
      return;
    }
    await this.store(
      uploadId,
      FingerprintStatusCode.ready,
      null,
      hashToSigned(result.hash),
      result.colours,
      families,
    );
  }

  /** Records why a file has no hash (too small, blank, animated, no raster preview, failed). */
  async saveStatus(uploadId: number, status: UnhashedStatus, reason: string | null): Promise<void> {
    await this.store(uploadId, FingerprintStatusCode[status], reason?.slice(0, 200) ?? null, null, [], []);
  }

  /**
   * The row and its colours, replacing what was there, in one statement (one round trip: the
   * media job's database work is what the thumbnail queue waits on). Pairs found with an earlier
   * hash go; the caller records the new hash's (`stored`). The colours are upserted by slot and
   * the slots beyond them deleted, so no two parts of the statement touch the same row; the family
   * shares likewise by family.
   */
  private async store(
    uploadId: number,
    status: number,
    reason: string | null,
    hash: string | null,
    colours: readonly PaletteColour[],
    families: readonly FamilyShare[],
  ): Promise<void> {
    const slots = colours.slice(0, 5).map((colour, slot) => ({
      upload_id: uploadId,
      slot,
      l: colour.l,
      a: colour.a,
      b: colour.b,
      weight: colour.w,
    }));
    await this.db
      .with('gone_pairs', (db) =>
        db
          .deleteFrom('near_duplicate_pairs')
          .where((eb) => eb.or([eb('upload_a', '=', uploadId), eb('upload_b', '=', uploadId)])),
      )
      .with('gone_families', (db) =>
        db
          .deleteFrom('media_colour_families')
          .where('upload_id', '=', uploadId)
          .$if(families.length > 0, (q) =>
            q.where(
              'family',
              'not in',
              families.map((f) => f.family),
            ),
          ),
      )
      .with('families', (db) =>
        families.length === 0
          ? db.selectNoFrom(sql<number>`0`.as('none'))
          : db
              .insertInto('media_colour_families')
              .values(families.map((f) => ({ upload_id: uploadId, family: f.family, share: f.share })))
              .onConflict((oc) =>
                oc
                  .columns(['upload_id', 'family'])
                  .doUpdateSet((eb) => ({ share: eb.ref('excluded.share') })),
              ),
      )
      .with('gone_colours', (db) =>
        db.deleteFrom('media_colours').where('upload_id', '=', uploadId).where('slot', '>=', slots.length),
      )
      .with('colours', (db) =>
        slots.length === 0
          ? db.selectNoFrom(sql<number>`0`.as('none'))
          : db
              .insertInto('media_colours')
              .values(slots)
              .onConflict((oc) =>
                oc.columns(['upload_id', 'slot']).doUpdateSet((eb) => ({
                  l: eb.ref('excluded.l'),
                  a: eb.ref('excluded.a'),
                  b: eb.ref('excluded.b'),
                  weight: eb.ref('excluded.weight'),
                })),
              ),
      )
      .insertInto('media_fingerprints')
      .values({ upload_id: uploadId, status, reason, hash, algo: FINGERPRINT_ALGO })
      .onConflict((oc) =>
        oc.column('upload_id').doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          reason: eb.ref('excluded.reason'),
          hash: eb.ref('excluded.hash'),
          algo: eb.ref('excluded.algo'),
          computed_at: new Date(),
        })),
      )
      .execute();
  }

  /**
   * Finished uploads after `afterId` with a thumbnail and no fingerprint of the current algorithm,
   * oldest first: the anti-join walks uploads by id from there and probes the primary key. Every
   * upload handed out gets a row (a hash or why not), so a run from 0 after a restart skips them.
   */
  unfingerprinted(limit: number, afterId = 0): Promise<UnfingerprintedUpload[]> {
    return this.db
      .selectFrom('uploads as u')
      .select([
        'u.id',
        'u.format',
        sql<string>`u.thumb_key`.as('thumb_key'),
        'u.item_id',
        'u.width',
        'u.height',
      ])
      .where('u.id', '>', afterId)
      .where('u.status', '=', UploadStatus.done)
      .where('u.preview_status', '=', PreviewStatus.ready)
      .where('u.thumb_key', 'is not', null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('media_fingerprints as f')
              .select(sql`1`.as('one'))
              .whereRef('f.upload_id', '=', 'u.id')
              .where('f.algo', '>=', FINGERPRINT_ALGO)
              // A failed one is tried again by the next run.
              .where('f.status', '<>', FingerprintStatusCode.failed),
          ),
        ),
      )
      .orderBy('u.id')
      .limit(limit)
      .execute();
  }

  /** How many uploads a back-fill covers, and how many of them are done (its progress). */
  async progress(): Promise<{ done: number; total: number }> {
    const row = await this.db
      .selectFrom('uploads as u')
      .leftJoin('media_fingerprints as f', (join) =>
        join.onRef('f.upload_id', '=', 'u.id').on('f.algo', '>=', FINGERPRINT_ALGO),
      )
      .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.count<number>('f.upload_id').as('done')])
      .where('u.status', '=', UploadStatus.done)
      .where('u.preview_status', '=', PreviewStatus.ready)
      .where('u.thumb_key', 'is not', null)
      .executeTakeFirstOrThrow();
    return { done: Number(row.done), total: Number(row.total) };
  }
}
