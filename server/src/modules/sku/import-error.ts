import { type ErrorCode, type Language, SKU_IMPORT_MAX_BYTES, type SkuImportField } from '@dam/contract';
import { AppError } from '../../http/app-error';
import { templateHeader } from './workbook';

/**
 * Why an SKU import was refused, with the row details: `values` fill the message of `code`
 * (`row`, `value`, `other`, `max`…); `templateField` is named by the template header of the
 * caller's language, `values.column` is a header as written in the file.
 */
export class SkuImportError extends AppError {
  override name = 'SkuImportError';
  constructor(
    code: ErrorCode,
    values: Record<string, string | number> = {},
    readonly templateField?: SkuImportField,
  ) {
    super(code, undefined, values);
  }

  override valuesIn(lang: Language): Record<string, string | number> {
    const values: Record<string, string | number> = { ...this.values };
    if (this.templateField) values.column = templateHeader(this.templateField, lang === 'zh');
    if (this.code === 'SESK_06') values.max = `${SKU_IMPORT_MAX_BYTES / 1024 / 1024} MB`;
    return values;
  }
}
