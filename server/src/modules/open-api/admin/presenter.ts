import {
  type ApiAccessSummary,
  type ApiEnterprise,
  FunctionCode,
  OPEN_CALLS,
  type OpenCall,
} from '@dam/contract';
import { AppError } from '../../../http/app-error';
import { type AuthContext, administrationReach, requireAnyCode } from '../../access/access';
import type { ApiAccessState } from './changes';
import type { ApiAccessRecord, EnterpriseRecord, UsageTotals } from './repository';

/** Checks and answer shapes of the open API's management (./service). */

/** SPEC §5: the enterprise ID is required; SPEC §8 names its absence SEP_02. */
export function requireEnterpriseId(enterpriseId: string | undefined): string {
  if (!enterpriseId) throw new AppError('SEP_02');
  return enterpriseId;
}

/** Enterprises are shared by every record: changing one needs code 7 and a reach of everything. */
export function requireEnterpriseAdministration(auth: AuthContext): void {
  requireAnyCode(auth, FunctionCode.api);
  if (administrationReach(auth).kind !== 'all') throw new AppError('SE_502');
}

/** The codes of the contract's open calls among `codes`, in the contract's order. */
export function knownCalls(codes: readonly string[] | undefined): OpenCall[] {
  const held = new Set(codes ?? []);
  return OPEN_CALLS.filter((code) => held.has(code));
}

export function stateOf(row: ApiAccessRecord): ApiAccessState {
  return {
    name: row.name,
    description: row.description,
    enterpriseId: row.enterprise_id,
    userMail: row.user_mail,
    status: row.status,
  };
}

export function summaryOf(row: ApiAccessRecord, totals: UsageTotals | undefined): ApiAccessSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    enterpriseId: row.enterprise_id,
    enterpriseName: row.enterprise_name,
    userMail: row.user_mail,
    userName: row.user_name,
    status: row.status === 1 ? 1 : 0,
    keyId: row.key_id,
    secretHint: row.secret_hint,
    previousValidUntil: row.previous_valid_until?.toISOString() ?? null,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    lastUsedIp: row.last_used_ip,
    callsToday: totals?.callsToday ?? 0,
    calls30d: totals?.calls ?? 0,
    failures30d: totals?.failures ?? 0,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function enterpriseOf(row: EnterpriseRecord, codes: readonly string[] | undefined): ApiEnterprise {
  return {
    enterpriseId: row.enterprise_id,
    name: row.name,
    ratePerMinute: row.rate_per_minute,
    apiCodes: knownCalls(codes),
    accessCount: row.access_count,
    updatedAt: row.updated_at.toISOString(),
  };
}
