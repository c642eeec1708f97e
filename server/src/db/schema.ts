import type { Insertable, Selectable, Updateable } from 'kysely';
import type {
  AccountTokenTable,
  DepartmentRoleTable,
  DepartmentTable,
  RoleTable,
  SessionTable,
  SmsCodeTable,
  SsoAttemptTable,
  SsoSessionTable,
  UserRoleTable,
  UserTable,
} from './schema/accounts';
import type { CollectionItemTable, CollectionMemberTable, CollectionTable } from './schema/collections';
import type {
  CompositeAssetTable,
  CompositeJobArticleTable,
  CompositeJobTable,
  CompositeOutputTable,
  CompositeTemplateTable,
  CompositeTemplateVersionTable,
} from './schema/composite';
import type { AppSettingTable, CollectTable, ItemTable, RecentViewTable } from './schema/items';
import type {
  MailGroupAddressTable,
  MailGroupTable,
  MailGroupUserTable,
  MailNoticeTable,
  MailTable,
} from './schema/mail';
import type { MetadataTagFindingTable, MetadataTagRuleTable } from './schema/metadata-mapping';
import type {
  ApiAccessTable,
  ApiEnterpriseCallTable,
  ApiEnterpriseTable,
  ApiNonceTable,
  ApiUsageDailyTable,
  ApiWebhookDeliveryTable,
  ApiWebhookTable,
  AssetChangeTable,
} from './schema/open-api';
import type { ObjectDeletionTable, OperationLogTable, RateLimitCounterTable } from './schema/operations';
import type {
  CompletenessSettingsTable,
  CompletenessViewTable,
  ImportTable,
  ReportDailyDeptTable,
  ReportDailyUserTable,
  ReportMonthlyUserTable,
  ReportRollupStateTable,
  ReportStorageTable,
} from './schema/reports';
import type { ItemReviewerTable, ReviewEventTable } from './schema/review';
import type { DownloadPresetTable, DownloadTicketTable, ShareItemTable, ShareTable } from './schema/shares';
import type {
  ChannelTagTable,
  ItemTagTable,
  SkuTable,
  SkuTagTable,
  TagDimensionTable,
  TagTable,
} from './schema/tags';
import type {
  ItemColourFamilyTable,
  ItemColourTable,
  MediaColourFamilyTable,
  MediaColourTable,
  MediaFingerprintTable,
  NearDuplicatePairTable,
  UploadMetadataTable,
  UploadPartTable,
  UploadTable,
} from './schema/uploads';

export type * from './schema/accounts';
export type { ScopeColumn } from './schema/columns';
export type * from './schema/composite';
export type * from './schema/items';
export type * from './schema/mail';
export type * from './schema/metadata-mapping';
export type * from './schema/open-api';
export type * from './schema/operations';
export type * from './schema/reports';
export type * from './schema/shares';
export type * from './schema/tags';
export type * from './schema/uploads';

/**
 * Kysely's view of the tables, one interface per table in ./schema by subject; the migrations in
 * ./migrations are the source of truth.
 */
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
  upload_metadata: UploadMetadataTable;
  metadata_tag_rules: MetadataTagRuleTable;
  metadata_tag_findings: MetadataTagFindingTable;
  collections: CollectionTable;
  collection_members: CollectionMemberTable;
  collection_items: CollectionItemTable;
  item_reviewers: ItemReviewerTable;
  review_events: ReviewEventTable;
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
