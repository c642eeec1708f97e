import {
  type Envelope,
  type ErrorCode,
  errorMessage,
  fillTemplate,
  isValidationKey,
  type Language,
  VALIDATION_MESSAGES,
  type ValidationKey,
} from '@dam/contract';

export function ok<T>(result: T): Envelope<T> {
  return { success: true, result, errorCode: null, errorDesc: null };
}

export function failure(
  code: ErrorCode,
  lang: Language,
  detail?: string,
  values?: Record<string, string | number>,
): Envelope<never> {
  return {
    success: false,
    result: null,
    errorCode: code,
    errorDesc: errorMessage(code, lang, detail, values),
  };
}

/** "newPassword: the password must be …" in the caller's language. */
export function describeField(
  lang: Language,
  field: string,
  reason: ValidationKey,
  values: Record<string, string | number> = {},
): string {
  const template = VALIDATION_MESSAGES[lang][reason] ?? VALIDATION_MESSAGES.zh[reason];
  return `${field}: ${fillTemplate(template, values)}`;
}

interface ValidationIssueLike {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** Maps a zod issue (as fastify-type-provider-zod reports it) to a catalogue reason. */
export function reasonOfIssue(issue: ValidationIssueLike): {
  reason: ValidationKey;
  values: Record<string, string | number>;
} {
  const message = issue.message ?? '';
  const params = issue.params ?? {};
  if (isValidationKey(message)) {
    // A schema's own reason ("tooBig") still reports the limit zod checked, or its message
    // would print a bare "{max}".
    const limits: Record<string, string | number> = {};
    if (params.maximum !== undefined) limits.max = String(params.maximum);
    if (params.minimum !== undefined) limits.min = String(params.minimum);
    const custom = (params.params ?? {}) as Record<string, string | number>;
    return { reason: message, values: { ...limits, ...custom } };
  }
  const origin = params.origin;
  switch (issue.keyword) {
    case 'invalid_type':
      return { reason: /received undefined/.test(message) ? 'required' : 'invalidType', values: {} };
    case 'too_big':
      return {
        reason: origin === 'string' ? 'tooLong' : 'tooBig',
        values: { max: String(params.maximum ?? '') },
      };
    case 'too_small':
      if (origin === 'string' && params.minimum === 1) return { reason: 'required', values: {} };
      return {
        reason: origin === 'string' ? 'tooShort' : 'tooSmall',
        values: { min: String(params.minimum ?? '') },
      };
    case 'invalid_format':
      return { reason: 'invalidFormat', values: {} };
    case 'unrecognized_keys':
      return { reason: 'unknownField', values: {} };
    default:
      return { reason: 'invalidValue', values: {} };
  }
}
