import type {
  DepartmentStatus,
  FunctionCode,
  ItemState,
  ItemType,
  PermissionScope,
  PresetFormat,
  PreviewStatus,
  ShareState,
  ShareValidity,
  UploadStatus,
  UserStatus,
  Visibility,
} from '@dam/contract';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Kysely's view of the tables; the migrations in ./migrations are the source of truth. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export type ScopeColumn = PermissionScope;

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

export interface ItemTable {
  id: Generated<number>;
  type: ItemType;
  parent_id: number | null;
  name: string;
  id_path: string;
  folder_path: string;
  owner_id: number;
  /**
   * Denormalised path of the owner's department: rewritten when a department moves (its whole
   * subtree) and when the owner changes department (their items follow them).
   */
  dept_path: string;
  visibility: Visibility;
  state: Generated<ItemState>;
  removed_at: Date | null;
  removed_by: number | null;
  removed_root_id: number | null;
  art_num: string | null;
  /** Validity dates as YYYY-MM-DD (PostgreSQL `date`, read back as text). */
  expire_start_date: string | null;
  expire_end_date: string | null;
  file_formats: string | null;
  total_size: Generated<number>;
  cover_key: string | null;
  view_count: Generated<number>;
  download_count: Generated<number>;
  /** Of download_count, those made through a share link. */
  share_download_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CollectTable {
  user_id: number;
  item_id: number;
  created_at: Timestamp;
}

export interface RecentViewTable {
  user_id: number;
  item_id: number;
  viewed_at: Timestamp;
  /** The viewer's opening last counted as a view of the file (migration 030, issue 39 item 3). */
  opening: Generated<string | null>;
}

export interface AppSettingTable {
  key: string;
  value: string;
}

export interface UploadTable {
  id: Generated<number>;
  batch_num: string;
  user_id: number;
  folder_id: number | null;
  relative_path: Generated<string>;
  file_name: string;
  base_name: string;
  format: string;
  file_size: number;
  last_modified: Date | null;
  storage_key: string;
  multipart_id: string | null;
  part_size: number | null;
  status: Generated<UploadStatus>;
  upload_schedule: Generated<number>;
  error: string | null;
  art_num: string | null;
  expire_start_date: string | null;
  expire_end_date: string | null;
  tag_ids: ColumnType<number[], number[] | undefined, number[]>;
  item_id: number | null;
  width: number | null;
  height: number | null;
  preview_status: Generated<PreviewStatus>;
  preview_attempts: Generated<number>;
  thumb_key: string | null;
  preview_key: string | null;
  /** A video's playable MP4 rendition (migration 014), when the original does not play. */
  play_key: string | null;
  play_status: PreviewStatus | null;
  /** Pages of a PDF/AI (migration 014). */
  page_count: number | null;
  hidden: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: Date | null;
  /** The item the uploader asked this file to become a version of (migration 025, issue 17). */
  version_of_item_id: Generated<number | null>;
}

/**
 * An upload's perceptual hash (migration 025). `hash` is a signed 64-bit value: write it as the
 * decimal string of `hashToSigned`, read it as `hash::text` (the driver makes bigint a JS number,
 * exact only to 2^53). The bands are generated from it.
 */
export interface MediaFingerprintTable {
  upload_id: number;
  status: number;
  reason: string | null;
  hash: string | null;
  b0: Generated<number | null>;
  b1: Generated<number | null>;
  b2: Generated<number | null>;
  b3: Generated<number | null>;
  algo: number;
  computed_at: Generated<Timestamp>;
}

/** One of an upload's dominant colours: OKLab × 1000, weight in ‰ (migration 025). */
export interface MediaColourTable {
  upload_id: number;
  slot: number;
  l: number;
  a: number;
  b: number;
  weight: number;
}

/** The cover upload's colours per item, with their colour cell and the item's creation time. */
export interface ItemColourTable extends Omit<MediaColourTable, 'upload_id'> {
  item_id: number;
  cell: number;
  created_at: Timestamp;
}

/** The share (‰) of an upload's picture each colour family covers (issue 39; 5 % and more). */
export interface MediaColourFamilyTable {
  upload_id: number;
  family: number;
  share: number;
}

/** The cover upload's family shares per item, with the item's creation time. */
export interface ItemColourFamilyTable {
  item_id: number;
  family: number;
  share: number;
  created_at: Timestamp;
}

/** Two uploads that look alike, found when the later fingerprint was stored (`upload_a < upload_b`). */
export interface NearDuplicatePairTable {
  upload_a: number;
  upload_b: number;
  distance: number;
  colour_distance: number;
}

export interface UploadPartTable {
  upload_id: number;
  part_number: number;
  size: number;
  etag: string;
}

export interface DownloadPresetTable {
  id: Generated<number>;
  name: string;
  format: PresetFormat;
  long_side_px: number | null;
  background: string | null;
  file_name_template: string;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface DownloadTicketTable {
  token_hash: string;
  /** The session of a signed-in download, or null for a share link's visitor (share_id set). */
  session_id: number | null;
  share_id: number | null;
  /** An open API access record's link (migration 022); exactly one of the three holders is set. */
  api_access_id: ColumnType<number | null, number | null | undefined, number | null>;
  kind: string;
  request: ColumnType<unknown, string, string>;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

/** A share link (SPEC §2 share-link dialog, §4 sharing/stopped). */
export interface ShareTable {
  id: Generated<number>;
  /** 144 random bits in base64url: the link's secret. */
  code: string;
  owner_id: number;
  /** The share password, kept so the owner can see it again; null = public link. */
  password: string | null;
  status: Generated<ShareState>;
  validity: ShareValidity;
  /** null = permanent. */
  expires_at: Date | null;
  view_count: Generated<number>;
  download_count: Generated<number>;
  created_at: Timestamp;
  stopped_at: Date | null;
}

/** The files and folders a link names, in the order chosen. */
export interface ShareItemTable {
  share_id: number;
  item_id: number;
  position: number;
}

/** The SKU (article number) master; art_num is unique regardless of case. */
export interface SkuTable {
  id: Generated<number>;
  art_num: string;
  name: string;
  series: string | null;
  category: string | null;
  color: string | null;
  season: string | null;
  gender: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** A tag dimension (SPEC §3); only top-level ones can be required. */
export interface TagDimensionTable {
  id: Generated<number>;
  name: string;
  required: Generated<boolean>;
  parent_id: number | null;
  /** Position among siblings. */
  position: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** A tag of a dimension; parent_id is its superior tag in the parent dimension. */
export interface TagTable {
  id: Generated<number>;
  dimension_id: number;
  name: string;
  parent_id: number | null;
  position: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ItemTagTable {
  item_id: number;
  tag_id: number;
}

export interface SkuTagTable {
  sku_id: number;
  tag_id: number;
}

/** A channel tag of an item (SPEC §3): at most 10 characters, unique per item regardless of case. */
export interface ChannelTagTable {
  id: Generated<number>;
  item_id: number;
  channel_name: string;
  created_by: number | null;
  created_at: CreatedAt;
}

/** One entry of the operation log (append-only: rows are inserted, never changed). */
export interface OperationLogTable {
  id: Generated<number>;
  created_at: ColumnType<Date, Date, never>;
  /** null: a share-link visitor. */
  operator_id: number | null;
  /** The operator's name at the time. */
  operator_name: string | null;
  operator_code: string;
  item_ids: ColumnType<number[], number[] | undefined, never>;
  item_names: ColumnType<string[], string[] | undefined, never>;
  item_count: ColumnType<number, number | undefined, never>;
  /** Lower-cased names joined by '/', for "file name contains". */
  item_names_search: ColumnType<string, string | undefined, never>;
  new_value: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, never>;
  ip: string | null;
  user_agent: string | null;
  reported: ColumnType<boolean, boolean | undefined, never>;
  /** The open API access record the operation was made through (migration 022), or null. */
  api_access_id: ColumnType<number | null, number | null | undefined, never>;
}

/** An object to delete from storage, kept until storage confirmed it (migration 012). */
export interface ObjectDeletionTable {
  key: string;
  multipart_id: string | null;
  enqueued_at: Timestamp;
  attempts: Generated<number>;
  last_attempt_at: Date | null;
  last_error: string | null;
}

/** Attempts counted for a limit in one fixed window (migration 011). */
export interface RateLimitCounterTable {
  key: string;
  window_start: Date;
  count: number;
}

/** The mail outbox (migration 015): what was sent, to whom, and how it went. */
export interface MailTable {
  id: Generated<number>;
  purpose: string;
  recipient: string;
  language: string;
  subject: string;
  text_body: string;
  html_body: string;
  state: Generated<'queued' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  last_error: string | null;
  created_by: number | null;
  created_at: Date;
  sent_at: Date | null;
  /** Inline parts read from storage at delivery (migration 018). */
  attachments: ColumnType<MailAttachment[], string | undefined, string>;
}

/** An inline attachment of a mail: an object of the store, shown in the HTML as cid:<cid>. */
export interface MailAttachment {
  cid: string;
  key: string;
  contentType: string;
  fileName: string;
}

/** An upload batch's mail notice (migration 018). */
export interface MailNoticeTable {
  id: Generated<number>;
  batch_num: string;
  user_id: number;
  mail_group_ids: ColumnType<number[], number[] | undefined, number[]>;
  user_ids: ColumnType<number[], number[] | undefined, number[]>;
  subject: Generated<string>;
  content: Generated<string>;
  remark: Generated<string>;
  delay_hours: number;
  language: Generated<string>;
  state: Generated<'scheduled' | 'dispatched'>;
  recipients: Generated<number>;
  mail_ids: ColumnType<number[], number[] | undefined, number[]>;
  created_at: Date;
  updated_at: Date;
  dispatched_at: Date | null;
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

/** A mail group (migration 017): belongs to its maker's department. */
export interface MailGroupTable {
  id: Generated<number>;
  name: string;
  dept_id: number | null;
  created_by: number | null;
  updated_by: number | null;
  created_at: Date;
  updated_at: Date;
}

/** A user of a mail group (migration 017). */
export interface MailGroupUserTable {
  group_id: number;
  user_id: number;
}

/** An external address of a mail group, in lower case (migration 017). */
export interface MailGroupAddressTable {
  group_id: number;
  email: string;
}

/** The figures of a day in the data reports' rollups (migration 019). */
interface ReportFigureColumns {
  uploads: number;
  upload_bytes: number;
  downloads: number;
  share_downloads: number;
  views: number;
  shares: number;
  share_visits: number;
}

/** Daily rollup of the operation log by department and file type (migration 019). */
export interface ReportDailyDeptTable extends ReportFigureColumns {
  day: string;
  dept_id: number | null;
  file_type: string;
}

/** The person rollup summed by month (migration 019). */
export interface ReportMonthlyUserTable extends ReportFigureColumns {
  month: string;
  user_id: number | null;
  dept_id: number | null;
}

/** Daily rollup of the operation log by person (migration 019). */
export interface ReportDailyUserTable extends ReportFigureColumns {
  day: string;
  user_id: number | null;
  dept_id: number | null;
}

export interface ReportRollupStateTable {
  id: Generated<boolean>;
  /** Days before this one (YYYY-MM-DD) are rolled up; null: none yet. */
  rolled_until: string | null;
  time_zone: string;
  storage_at: Date | null;
  updated_at: Date;
}

/** Storage used by owner and file type, as of report_rollup_state.storage_at (migration 019). */
export interface ReportStorageTable {
  user_id: number;
  file_type: string;
  files: number;
  bytes: number;
}

/** One row of an import workbook as kept (migration 020): its number and cell texts. */
export interface ImportSheetRow {
  n: number;
  c: string[];
}

/** A workbook imported through import management (migration 020). */
export interface ImportTable {
  id: Generated<number>;
  kind: 'sku' | 'tagAssignments';
  status: 'checking' | 'checked' | 'rejected' | 'applying' | 'applied' | 'discarded' | 'failed';
  file_name: string;
  file_size: number;
  created_by: number | null;
  dept_id: number | null;
  created_at: Date;
  updated_at: Date;
  applied_by: number | null;
  applied_at: Date | null;
  header: ColumnType<ImportSheetRow, string, string>;
  rows: ColumnType<ImportSheetRow[], string, string>;
  total_rows: number;
  processed_rows: Generated<number>;
  created_count: Generated<number>;
  updated_count: Generated<number>;
  unchanged_count: Generated<number>;
  problem_count: Generated<number>;
  problems: ColumnType<unknown[], string | undefined, string>;
  changes: ColumnType<unknown[], string | undefined, string>;
}

/** An expected view of the SKU completeness report (migration 021). */
export interface CompletenessViewTable {
  id: Generated<number>;
  position: number;
  name: string;
  code: string | null;
  tag_id: number | null;
  match_any: Generated<boolean>;
  formats: string[];
  updated_by: number | null;
  updated_at: Generated<Date>;
}

/** The completeness report's one row of settings (migration 021). */
export interface CompletenessSettingsTable {
  id: Generated<boolean>;
  default_folder_id: number | null;
}

/** An enterprise of the open API (migration 022). */
export interface ApiEnterpriseTable {
  enterprise_id: string;
  name: string;
  rate_per_minute: Generated<number>;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ApiEnterpriseCallTable {
  enterprise_id: string;
  call_code: string;
}

/** An open API access record (SPEC §3 API access) and its key. */
export interface ApiAccessTable {
  id: Generated<number>;
  /** The key's public part (`dak_…`), sent as `x-dam-key`. */
  key_id: string;
  name: string;
  description: string;
  enterprise_id: string;
  user_mail: string;
  run_as_user_id: number;
  status: Generated<number>;
  /** The secret, encrypted with the server's key (lib/secret-box). */
  secret_enc: string;
  secret_hint: string;
  previous_secret_enc: string | null;
  previous_valid_until: Date | null;
  rotated_at: Date | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  deleted_at: Date | null;
}

/** A nonce a signed request used, kept until its timestamp can no longer be accepted. */
export interface ApiNonceTable {
  access_id: number;
  nonce: string;
  expires_at: Date;
}

/** Calls of an access record per UTC day and call. */
export interface ApiUsageDailyTable {
  access_id: number;
  day: ColumnType<string, string, string>;
  call_code: string;
  calls: Generated<number>;
  failures: Generated<number>;
}

/** One asset's changes in one transaction (migration 023), written by triggers. */
export interface AssetChangeTable {
  id: Generated<string>;
  /** The writing transaction's id (xid8, read as text). */
  txid: ColumnType<string, never, never>;
  item_id: number;
  kinds: string[];
  changed_at: CreatedAt;
  /** Who could see the file as last written in that transaction (a purged file's entry is judged by it). */
  owner_id: number;
  visibility: Visibility;
  dept_path: string;
}

/** A webhook of an access record (migration 023). */
export interface ApiWebhookTable {
  id: Generated<number>;
  access_id: number;
  url: string;
  events: string[];
  status: Generated<number>;
  secret_enc: string;
  secret_hint: string;
  consecutive_failures: Generated<number>;
  disabled_reason: string | null;
  created_by: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** Since when its receiver answers (migration 028); null while new or failing. */
  healthy_since: Date | null;
  /** Failed attempts in a row (migration 028): how long the receiver is paused. */
  attempt_failures: Generated<number>;
  /** Its deliveries wait until then (migration 028). */
  paused_until: Date | null;
}

/** One event sent (or to send) to a webhook, with its attempts. */
export interface ApiWebhookDeliveryTable {
  id: Generated<string>;
  webhook_id: number;
  change_id: string | null;
  event_type: string;
  item_id: number | null;
  payload: ColumnType<Record<string, unknown>, string, string>;
  state: Generated<string>;
  attempts: Generated<number>;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: CreatedAt;
}

/** A detail-page template (issue 16); its content is in its versions. */
export interface CompositeTemplateTable {
  id: Generated<number>;
  name: string;
  /** 1 offered for composing, 0 archived. */
  status: Generated<number>;
  current_version: number;
  created_by: number | null;
  updated_by: number | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  deleted_at: Date | null;
}

/** One immutable version of a template: its spec (templateSpecSchema output) and a few columns of it. */
export interface CompositeTemplateVersionTable {
  template_id: number;
  version: number;
  spec: ColumnType<unknown, string, string>;
  width: number;
  block_count: number;
  slice_max_height: number;
  created_by: number | null;
  created_at: CreatedAt;
}

/** A fixed image of templates (a brand banner), stored as PNG. */
export interface CompositeAssetTable {
  id: Generated<number>;
  storage_key: string;
  width: number;
  height: number;
  bytes: number;
  source_item_id: number | null;
  created_by: number | null;
  created_at: CreatedAt;
}

/** A composition job: one template version for a list of article numbers. */
export interface CompositeJobTable {
  id: Generated<number>;
  user_id: number;
  template_id: number;
  template_version: number;
  target_folder_id: number | null;
  options: ColumnType<unknown, string, string>;
  status: Generated<'running' | 'done' | 'cancelled'>;
  article_count: number;
  retry_of: number | null;
  created_at: CreatedAt;
  finished_at: Date | null;
}

/** One article of a composition job and how its render went. */
export interface CompositeJobArticleTable {
  id: Generated<number>;
  job_id: number;
  position: number;
  art_num: string;
  overrides: ColumnType<unknown, string | undefined, string>;
  status: Generated<'pending' | 'rendering' | 'done' | 'missing' | 'failed' | 'cancelled'>;
  attempts: Generated<number>;
  missing: ColumnType<unknown, string | undefined, string>;
  warnings: ColumnType<unknown, string | undefined, string>;
  error: string | null;
  page_height: number | null;
  slice_count: number | null;
  duration_ms: number | null;
  started_at: Date | null;
  finished_at: Date | null;
}

/** A file a render wrote (the whole page, index 0, or a slice). */
export interface CompositeOutputTable {
  article_id: number;
  kind: 'page' | 'slice';
  slice_index: number;
  item_id: number | null;
  upload_id: number | null;
  name: string;
  width: number;
  height: number;
  bytes: number;
}

export interface Database {
  sku: SkuTable;
  app_settings: AppSettingTable;
  uploads: UploadTable;
  upload_parts: UploadPartTable;
  items: ItemTable;
  collects: CollectTable;
  recent_views: RecentViewTable;
  departments: DepartmentTable;
  roles: RoleTable;
  users: UserTable;
  user_roles: UserRoleTable;
  department_roles: DepartmentRoleTable;
  sessions: SessionTable;
  download_presets: DownloadPresetTable;
  download_tickets: DownloadTicketTable;
  shares: ShareTable;
  share_items: ShareItemTable;
  tag_dimensions: TagDimensionTable;
  tags: TagTable;
  item_tags: ItemTagTable;
  sku_tags: SkuTagTable;
  channel_tags: ChannelTagTable;
  operation_logs: OperationLogTable;
  rate_limit_counters: RateLimitCounterTable;
  object_deletions: ObjectDeletionTable;
  mails: MailTable;
  completeness_views: CompletenessViewTable;
  completeness_settings: CompletenessSettingsTable;
  mail_notices: MailNoticeTable;
  sms_codes: SmsCodeTable;
  account_tokens: AccountTokenTable;
  sso_attempts: SsoAttemptTable;
  sso_sessions: SsoSessionTable;
  mail_groups: MailGroupTable;
  mail_group_users: MailGroupUserTable;
  mail_group_addresses: MailGroupAddressTable;
  report_daily_dept: ReportDailyDeptTable;
  report_daily_user: ReportDailyUserTable;
  report_monthly_user: ReportMonthlyUserTable;
  report_rollup_state: ReportRollupStateTable;
  report_storage: ReportStorageTable;
  imports: ImportTable;
  api_enterprises: ApiEnterpriseTable;
  api_enterprise_calls: ApiEnterpriseCallTable;
  api_accesses: ApiAccessTable;
  api_nonces: ApiNonceTable;
  api_usage_daily: ApiUsageDailyTable;
  asset_changes: AssetChangeTable;
  api_webhooks: ApiWebhookTable;
  api_webhook_deliveries: ApiWebhookDeliveryTable;
  composite_templates: CompositeTemplateTable;
  composite_template_versions: CompositeTemplateVersionTable;
  composite_assets: CompositeAssetTable;
  composite_jobs: CompositeJobTable;
  composite_job_articles: CompositeJobArticleTable;
  composite_outputs: CompositeOutputTable;
  media_fingerprints: MediaFingerprintTable;
  media_colours: MediaColourTable;
  item_colours: ItemColourTable;
  media_colour_families: MediaColourFamilyTable;
  item_colour_families: ItemColourFamilyTable;
  near_duplicate_pairs: NearDuplicatePairTable;
}

export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type RoleRow = Selectable<RoleTable>;
export type DepartmentRow = Selectable<DepartmentTable>;
export type SessionRow = Selectable<SessionTable>;
export type ItemRow = Selectable<ItemTable>;
export type UploadRow = Selectable<UploadTable>;
export type SkuRow = Selectable<SkuTable>;
