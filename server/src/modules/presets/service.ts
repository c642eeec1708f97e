import { type DownloadPreset, FunctionCode, type savePresetRequestSchema } from '@dam/contract';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/sql-helpers';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { type AuthContext, requireAnyCode } from '../access/access';
import type { PresetRow, PresetsRepository, PresetValues } from './repository';

export const presetDto = (row: PresetRow): DownloadPreset => ({
  id: row.id,
  name: row.name,
  format: row.format,
  longSidePx: row.long_side_px,
  background: row.background,
  fileNameTemplate: row.file_name_template,
  metadata: row.metadata,
  colourProfile: row.colour_profile,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

/**
 * Download presets: everyone signed in may list them (the download dialogs offer them); creating,
 * changing and deleting them is tag management's work (function code 4).
 */
export class PresetsService {
  constructor(
    private readonly presets: PresetsRepository,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<DownloadPreset[]> {
    return (await this.presets.list()).map(presetDto);
  }

  /** The preset a download names; SEDL_01 when it does not exist (any more). */
  async get(id: number): Promise<PresetRow> {
    const row = await this.presets.find(id);
    if (!row) throw new AppError('SEDL_01');
    return row;
  }

  async save(auth: AuthContext, body: z.output<typeof savePresetRequestSchema>): Promise<DownloadPreset> {
    requireAnyCode(auth, FunctionCode.tag);
    const values: PresetValues = {
      name: body.name,
      format: body.format,
      long_side_px: body.longSidePx,
      background: body.background,
      file_name_template: body.fileNameTemplate,
      metadata: body.metadata,
      colour_profile: body.colourProfile,
    };
    const now = this.clock.now();
    try {
      const row =
        body.id === undefined
          ? await this.presets.insert(values, auth.userId, now)
          : await this.presets.update(body.id, values, now);
      if (!row) throw new AppError('SEDL_01');
      return presetDto(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('SEDL_03');
      throw error;
    }
  }

  async delete(auth: AuthContext, id: number): Promise<void> {
    requireAnyCode(auth, FunctionCode.tag);
    if (!(await this.presets.delete(id))) throw new AppError('SEDL_01');
  }
}
