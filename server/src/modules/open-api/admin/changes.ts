import type { OpenCall } from '@dam/contract';

/** What the open API's management changes, as the operation log keeps it (./service answers these). */

/** What an access record held at one moment, for the operation log (never its secret). */
export interface ApiAccessState {
  name: string;
  description: string;
  enterpriseId: string;
  userMail: string;
  status: number;
}

/** A change of an access record: before (null: created) and after (null: deleted). */
export interface ApiAccessChange {
  id: number;
  keyId: string;
  before: ApiAccessState | null;
  after: ApiAccessState | null;
}

/** A rotation: which key, and until when the old secret still signs (null: it died at once). */
export interface ApiSecretRotation {
  id: number;
  keyId: string;
  name: string;
  graceHours: number;
  previousValidUntil: Date | null;
}

export interface ApiEnterpriseState {
  name: string;
  ratePerMinute: number;
  apiCodes: OpenCall[];
}

/** A change of an enterprise: before (null: created) and after (null: deleted). */
export interface ApiEnterpriseChange {
  enterpriseId: string;
  before: ApiEnterpriseState | null;
  after: ApiEnterpriseState | null;
}

/** A save's answer and what the operation log keeps of it. */
export interface Saved<T, C> {
  result: T;
  change: C;
}
