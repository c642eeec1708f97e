import type { DepartmentStatus, FunctionCode, UserStatus } from '@dam/contract';
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, ScopeColumn, Timestamp } from './columns';

/** Departments, roles, users and sessions; one-time codes, mailed-link tokens and single sign-on. */

export interface DepartmentTable {
  id: Generated<number>;
  parent_id: number | null;
  name: string;
  type: Generated<number>;
  status: Generated<DepartmentStatus>;
  /** Materialised path of ids, e.g. `/1/4/9/`: a subtree is `path LIKE '/1/4/%'`. */
  path: string;
  head_user_id: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface RoleTable {
  id: Generated<number>;
  name: string;
  view_scope: ScopeColumn;
  upload_scope: ScopeColumn;
  download_scope: ScopeColumn;
  share_scope: ScopeColumn;
  function_codes: ColumnType<FunctionCode[], FunctionCode[], FunctionCode[]>;
  /** The administrator role made at first start; it cannot be deleted or lose codes. */
  is_system: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface UserTable {
  id: Generated<number>;
  username: string | null;
  email: string | null;
  mobile: string | null;
  name: string;
  portrait: string | null;
  dept_id: number | null;
  status: Generated<UserStatus>;
  password_hash: string | null;
  password_changed_at: Timestamp;
  /** Set when someone else chose the password (first start, admin reset). */
  must_change_password: Generated<boolean>;
  login_count: Generated<number>;
  last_login_at: Date | null;
  /** `issuer subject` of the single sign-on identity the account was matched to (migration 016). */
  sso_subject: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface UserRoleTable {
  user_id: number;
  role_id: number;
}

export interface DepartmentRoleTable {
  dept_id: number;
  role_id: number;
}

export interface SessionTable {
  id: Generated<number>;
  /** SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  remember: boolean;
  created_at: CreatedAt;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
}

/** The live SMS code of a number for one purpose (migration 015); only its hash is kept. */
export interface SmsCodeTable {
  mobile: string;
  purpose: 'signIn' | 'resetPassword' | 'changeMobile';
  user_id: number | null;
  code_hash: string;
  failed_attempts: Generated<number>;
  created_at: Date;
  expires_at: Date;
}

/** Single-use tokens of mailed links (migration 015); only their hash is kept. */
export interface AccountTokenTable {
  token_hash: string;
  purpose: 'resetPassword' | 'changeEmail';
  user_id: number;
  new_email: string | null;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** A sign-in sent to the OpenID provider and not yet finished (migration 016). */
export interface SsoAttemptTable {
  state_hash: string;
  nonce: string;
  code_verifier: string;
  browser_hash: string;
  redirect: string;
  created_at: Date;
  expires_at: Date;
}

/** How a session opened by single sign-on is ended at the provider (migration 016). */
export interface SsoSessionTable {
  session_id: number;
  logout_url: string;
}
