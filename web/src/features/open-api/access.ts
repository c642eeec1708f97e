import {
  API_ACCESS_DESCRIPTION_MAX_CHARS,
  API_ACCESS_NAME_MAX_CHARS,
  API_SECRET_GRACE_HOURS_MAX,
  ApiAccessStatus,
  type ApiAccessSummary,
  type ApiUsageDay,
  ENTERPRISE_ID_PATTERN,
  ENTERPRISE_NAME_MAX_CHARS,
  OPEN_API_RATE_MAX,
  OPEN_CALLS,
  type OpenCall,
  type OpenCallInfo,
  type SaveApiAccessRequest,
} from '@dam/contract';

/**
 * The /manage/api screen's rules without React (SPEC §3 API access, §5 required fields): what a
 * status switch sends, what the forms refuse before anything is sent (the contract's limits, the
 * server checks again), how a secret's hint and a record's use are shown.
 */

/** The access dialog's fields as the form holds them. */
export interface AccessForm {
  name: string;
  description: string;
  enterpriseId: string | undefined;
  userMail: string;
  on: boolean;
}

/** The problems the access dialog names under a field (its texts are `openApi.form.<problem>`). */
export type AccessProblem = 'required' | 'tooLong' | 'email';

/**
 * SPEC §5: name, description and enterprise ID are required; the name and description have the
 * contract's lengths; the user mail must look like an address (the server says whether it is a user's).
 */
export function accessFieldProblem(
  field: keyof Omit<AccessForm, 'on'>,
  value: string | undefined,
): AccessProblem | null {
  const text = (value ?? '').trim();
  if (!text) return 'required';
  if (field === 'name' && text.length > API_ACCESS_NAME_MAX_CHARS) return 'tooLong';
  if (field === 'description' && text.length > API_ACCESS_DESCRIPTION_MAX_CHARS) return 'tooLong';
  if (field === 'userMail' && !isMailAddress(text)) return 'email';
  return null;
}

/** The same rule as the contract's `z.email()`, roughly: one @, a dot in the domain, no spaces. */
export function isMailAddress(text: string): boolean {
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(text.trim());
}

/** What addOpenApi is sent for the dialog's values: `id` for an edit, none for a new record. */
export function accessRequest(values: AccessForm, id: number | null): SaveApiAccessRequest {
  return {
    ...(id === null ? {} : { id }),
    name: values.name.trim(),
    description: values.description.trim(),
    enterpriseId: values.enterpriseId,
    userMail: values.userMail.trim().toLowerCase(),
    status: values.on ? ApiAccessStatus.on : ApiAccessStatus.off,
  };
}

/** The dialog's values for an existing record (edit), or a new one's. */
export function accessFormOf(record: ApiAccessSummary | null, defaultMail = ''): AccessForm {
  if (!record) return { name: '', description: '', enterpriseId: undefined, userMail: defaultMail, on: true };
  return {
    name: record.name,
    description: record.description,
    enterpriseId: record.enterpriseId,
    userMail: record.userMail,
    on: record.status === ApiAccessStatus.on,
  };
}

/**
 * The status switch: addOpenApi with the record's own fields and the status flipped (the call
 * replaces the whole record, so nothing else may change on the way).
 */
export function statusToggleRequest(record: ApiAccessSummary, on: boolean): SaveApiAccessRequest {
  return accessRequest({ ...accessFormOf(record), on }, record.id);
}

/** The last characters of a secret as the list shows them: `••••abcd`. */
export function secretHintText(hint: string): string {
  return hint ? `••••${hint}` : '—';
}

/** The rotate dialog's grace period: whole hours from 0 (the old secret stops at once) to 168. */
export function graceHoursProblem(hours: number | null | undefined): 'required' | 'range' | null {
  if (hours === null || hours === undefined || Number.isNaN(hours)) return 'required';
  if (!Number.isInteger(hours) || hours < 0 || hours > API_SECRET_GRACE_HOURS_MAX) return 'range';
  return null;
}

/** The enterprise dialog's fields. */
export interface EnterpriseForm {
  enterpriseId: string;
  name: string;
  ratePerMinute: number | null;
  apiCodes: OpenCall[];
}

export type EnterpriseProblem = 'required' | 'pattern' | 'tooLong' | 'range';

export function enterpriseFieldProblem(
  field: 'enterpriseId' | 'name' | 'ratePerMinute',
  value: string | number | null | undefined,
): EnterpriseProblem | null {
  if (field === 'ratePerMinute') {
    if (value === null || value === undefined || value === '') return null;
    const rate = Number(value);
    return Number.isInteger(rate) && rate >= 1 && rate <= OPEN_API_RATE_MAX ? null : 'range';
  }
  const text = String(value ?? '').trim();
  if (!text) return 'required';
  if (field === 'enterpriseId' && !ENTERPRISE_ID_PATTERN.test(text)) return 'pattern';
  if (field === 'name' && text.length > ENTERPRISE_NAME_MAX_CHARS) return 'tooLong';
  return null;
}

/** The open calls in the contract's order, keeping only known ones (a list from the server may lag). */
export function orderedCalls(codes: readonly string[]): OpenCall[] {
  return OPEN_CALLS.filter((code) => codes.includes(code));
}

/** An allowed-call choice: one code, the endpoints it covers (`uploads` covers three). */
export interface CallChoice {
  code: OpenCall;
  endpoints: Array<{ method: string; path: string }>;
}

/** getAllApi's endpoints grouped by their code, in the contract's order (one checkbox per code). */
export function callChoices(calls: readonly OpenCallInfo[]): CallChoice[] {
  return orderedCalls(calls.map((call) => call.code)).map((code) => ({
    code,
    endpoints: calls.filter((call) => call.code === code).map(({ method, path }) => ({ method, path })),
  }));
}

/** One day of a record's use, all its calls together. */
export interface UsageDay {
  day: string;
  calls: number;
  failures: number;
}

/** The UTC date `days - 1` days before `today` up to `today`, as `YYYY-MM-DD`, oldest first. */
export function lastDays(today: Date, days: number): string[] {
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: days }, (_, index) =>
    new Date(end - (days - 1 - index) * 86_400_000).toISOString().slice(0, 10),
  );
}

/**
 * A record's use per day over the last `days` days (UTC dates, as the server counts them), days
 * without calls included, so the chart's bars stand where their days are.
 */
export function usageByDay(usage: readonly ApiUsageDay[], today: Date, days: number): UsageDay[] {
  const totals = new Map<string, UsageDay>(
    lastDays(today, days).map((day) => [day, { day, calls: 0, failures: 0 }]),
  );
  for (const row of usage) {
    const entry = totals.get(row.day.slice(0, 10));
    if (!entry) continue;
    entry.calls += row.calls;
    entry.failures += row.failures;
  }
  return [...totals.values()];
}

/** A record's use per call over the whole period, most used first. */
export function usageByCall(
  usage: readonly ApiUsageDay[],
): Array<{ callCode: string; calls: number; failures: number }> {
  const totals = new Map<string, { callCode: string; calls: number; failures: number }>();
  for (const row of usage) {
    const entry = totals.get(row.callCode) ?? { callCode: row.callCode, calls: 0, failures: 0 };
    entry.calls += row.calls;
    entry.failures += row.failures;
    totals.set(row.callCode, entry);
  }
  return [...totals.values()].sort((a, b) => b.calls - a.calls || a.callCode.localeCompare(b.callCode));
}

/** What the screen shows first: nothing to do, make an enterprise first, or make a record. */
export function emptyStep(enterprises: number, records: number): 'enterprise' | 'record' | null {
  if (records > 0) return null;
  return enterprises === 0 ? 'enterprise' : 'record';
}
