import type { LogSubject } from '../../logs/snapshot';
import type {
  ApiAccessChange,
  ApiAccessState,
  ApiEnterpriseChange,
  ApiEnterpriseState,
  ApiSecretRotation,
} from './service';

type Values = Record<string, string | number | string[]>;

/** The fields whose values differ, as `{field: [before, after]}` (what the log's `changes` holds). */
function changesOf(before: Values, after: Values): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changes[key] = [before[key], after[key]];
  }
  return changes;
}

const accessValues = (state: ApiAccessState): Values => ({ ...state });
const enterpriseValues = (state: ApiEnterpriseState): Values => ({ ...state });

/**
 * What the operation log keeps of an access record's creation, edit or deletion (API01–API03):
 * its id, name, key id and enterprise; for a creation or deletion its fields (`values`), for an
 * edit those that changed (`changes`, before and after). Never a secret nor its hint.
 */
export function apiAccessLogSubject(change: ApiAccessChange): LogSubject {
  const { before, after } = change;
  const current = (after ?? before) as ApiAccessState;
  const details: Record<string, unknown> = {
    apiAccessId: change.id,
    apiAccessName: current.name,
    keyId: change.keyId,
    enterpriseId: current.enterpriseId,
  };
  if (before && after) details.changes = changesOf(accessValues(before), accessValues(after));
  else details.values = accessValues(current);
  return { newValue: current.name, details };
}

/** A rotation (API04): which key, the grace given and until when the old secret signs. */
export function apiRotationLogSubject(rotation: ApiSecretRotation): LogSubject {
  return {
    newValue: rotation.name,
    details: {
      apiAccessId: rotation.id,
      apiAccessName: rotation.name,
      keyId: rotation.keyId,
      graceHours: rotation.graceHours,
      previousValidUntil: rotation.previousValidUntil?.toISOString() ?? null,
    },
  };
}

/**
 * An enterprise saved, its allowed calls saved (API05) or the enterprise deleted (API06): its ID
 * and name; `values` when created or deleted, `changes` when edited.
 */
export function apiEnterpriseLogSubject(change: ApiEnterpriseChange): LogSubject {
  const { before, after } = change;
  const current = (after ?? before) as ApiEnterpriseState;
  const details: Record<string, unknown> = {
    enterpriseId: change.enterpriseId,
    enterpriseName: current.name,
  };
  if (before && after) details.changes = changesOf(enterpriseValues(before), enterpriseValues(after));
  else details.values = enterpriseValues(current);
  return { newValue: current.name, details };
}
