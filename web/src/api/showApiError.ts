import type { FormInstance } from 'antd';
import { ApiError } from './client';
import { notifyError } from './notify';

/** Which form field a server refusal belongs to (by error code), so it shows under that field. */
export type FieldOfCode<Values> = Partial<Record<string, keyof Values & string>>;

/**
 * The one catch block of a user action that called the API. An ApiError's text (already in the
 * user's language) shows under its form field when `fields` names one, else as a message; anything
 * else is a bug and propagates. The client shows a non-silent call's failure itself: notifyError
 * shows the same text only once within 2 s, so it never appears twice.
 */
export function showApiError<Values>(
  error: unknown,
  fields?: { form: FormInstance<Values>; fieldOfCode: FieldOfCode<Values> },
): void {
  if (!(error instanceof ApiError)) throw error;
  const field = fields?.fieldOfCode[error.code];
  if (fields && field) fields.form.setFields([{ name: field as never, errors: [error.desc] }]);
  else notifyError(error.desc);
}
