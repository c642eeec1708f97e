import {
  ERROR_MESSAGES,
  type ErrorCode,
  fillTemplate,
  type Language,
  TAG_IMPORT_MAX_BYTES,
  VALIDATION_MESSAGES,
  type ValidationKey,
} from '@dam/contract';
import { AppError } from '../../http/app-error';

/** What went wrong in a row of a tag import: a catalogue message or a validation message. */
export type ImportDetail =
  | { code: ErrorCode; values: Record<string, string | number> }
  | { key: ValidationKey; values: Record<string, string | number> };

/**
 * Why a tag import was refused: a problem of the whole file (`code` with `values`: SESK_01
 * unreadable, SESK_02 no ID column, SESK_06 too large, SESK_07 too many rows), or of one place
 * (`code` SETG_14 with row, column and `detail`).
 */
export class TagImportError extends AppError {
  override name = 'TagImportError';
  constructor(
    code: ErrorCode,
    values: Record<string, string | number> = {},
    readonly detail?: ImportDetail,
  ) {
    super(code, undefined, values);
  }

  /** The row's problem becomes `{detail}` of SETG_14, in the caller's language. */
  override valuesIn(lang: Language): Record<string, string | number> {
    const values: Record<string, string | number> = { ...this.values };
    if (this.code === 'SESK_06') values.max = `${TAG_IMPORT_MAX_BYTES / 1024 / 1024} MB`;
    const detail = this.detail;
    if (detail) {
      values.detail =
        'code' in detail
          ? fillTemplate(ERROR_MESSAGES[lang]?.[detail.code] ?? ERROR_MESSAGES.zh[detail.code], detail.values)
          : fillTemplate(
              VALIDATION_MESSAGES[lang]?.[detail.key] ?? VALIDATION_MESSAGES.zh[detail.key],
              detail.values,
            );
    }
    return values;
  }
}

export const atCell = (row: number, column: string, detail: ImportDetail): TagImportError =>
  new TagImportError('SETG_14', { row, column }, detail);
