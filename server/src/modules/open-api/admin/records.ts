import type { FileScopeFilter } from '../../access/access';

/** Rows and inputs of ./repository (OpenAdminRepository): access records, usage, enterprises. */

/** An access record as the management screen reads it (never its secrets). */
export interface ApiAccessRecord {
  id: number;
  key_id: string;
  name: string;
  description: string;
  enterprise_id: string;
  enterprise_name: string;
  user_mail: string;
  run_as_user_id: number;
  user_name: string;
  /** The department path of the run-as user (null: no department); the record's reach. */
  user_dept_path: string | null;
  user_dept_id: number | null;
  status: number;
  secret_hint: string;
  previous_valid_until: Date | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface ApiAccessFilter {
  reach: FileScopeFilter;
  enterpriseId?: string | undefined;
  keyword?: string | undefined;
}

/** Call counts of one record: today, and over the days from `from` to today. */
export interface UsageTotals {
  callsToday: number;
  calls: number;
  failures: number;
}

export interface UsageDayRecord {
  day: string;
  call_code: string;
  calls: number;
  failures: number;
}

export interface EnterpriseRecord {
  enterprise_id: string;
  name: string;
  rate_per_minute: number;
  updated_at: Date;
  /** Live (not deleted) access records of the enterprise. */
  access_count: number;
}

/** The user a mail names, for the run-as check. */
export interface MailUserRecord {
  id: number;
  name: string;
  status: number;
  dept_id: number | null;
  dept_path: string | null;
}

export interface NewApiAccess {
  keyId: string;
  name: string;
  description: string;
  enterpriseId: string;
  userMail: string;
  runAsUserId: number;
  status: number;
  secretEnc: string;
  secretHint: string;
  createdBy: number;
  now: Date;
}
