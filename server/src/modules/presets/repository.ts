import type { PresetColourProfile, PresetMetadata } from '@dam/contract';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type { DownloadPresetTable } from '../../db/schema';

export type PresetRow = Selectable<DownloadPresetTable>;

export interface PresetValues {
  name: string;
  format: 'jpg' | 'png';
  long_side_px: number | null;
  background: string | null;
  file_name_template: string;
  metadata: PresetMetadata;
  colour_profile: PresetColourProfile;
}

/** SQL of download presets. */
export class PresetsRepository {
  constructor(private readonly db: Db) {}

  list(): Promise<PresetRow[]> {
    return this.db.selectFrom('download_presets').selectAll().orderBy('name').orderBy('id').execute();
  }

  find(id: number): Promise<PresetRow | undefined> {
    return this.db.selectFrom('download_presets').selectAll().where('id', '=', id).executeTakeFirst();
  }

  insert(values: PresetValues, createdBy: number, now: Date): Promise<PresetRow> {
    return this.db
      .insertInto('download_presets')
      .values({ ...values, created_by: createdBy, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(id: number, values: PresetValues, now: Date): Promise<PresetRow | undefined> {
    return this.db
      .updateTable('download_presets')
      .set({ ...values, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('download_presets').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
