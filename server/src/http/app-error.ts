import { ERROR_HTTP_STATUS, type ErrorCode, type Language, type ValidationKey } from '@dam/contract';

/**
 * A failure the caller is meant to see: a catalogue code plus, for SE_400, which field is wrong
 * and why. Services throw it; the error handler turns it into a localised envelope.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  /** Headers the answer carries besides the envelope (`retry-after` of a SE_429). */
  headers: Record<string, string> | undefined;
  constructor(
    readonly code: ErrorCode,
    readonly field?: { name: string; reason: ValidationKey; values?: Record<string, number | string> },
    /** Fill the placeholders of the code's own message (`{dimension}`, `{value}`…). */
    readonly values?: Record<string, number | string>,
  ) {
    super(code);
    this.status = ERROR_HTTP_STATUS[code];
  }

  /** This error, answered with these headers too. */
  withHeaders(headers: Record<string, string>): this {
    this.headers = { ...this.headers, ...headers };
    return this;
  }

  /**
   * The placeholder values in the caller's language. Errors whose values name things by language
   * (a template column, a nested message) override it; the error handler fills the message with it.
   */
  valuesIn(_lang: Language): Record<string, number | string> | undefined {
    return this.values;
  }
}

/** A catalogue code whose message names things: `coded('SETG_10', { dimension: 'Season' })`. */
export const coded = (code: ErrorCode, values: Record<string, number | string>): AppError =>
  new AppError(code, undefined, values);

export const invalidField = (
  name: string,
  reason: ValidationKey,
  values?: Record<string, number | string>,
): AppError => new AppError('SE_400', values ? { name, reason, values } : { name, reason });
