import type { Migration } from 'kysely/migration';
import * as m001 from './001_accounts';
import * as m002 from './002_items';
import * as m003 from './003_uploads';
import * as m004 from './004_sku';
import * as m005 from './005_download_presets';
import * as m006 from './006_accounts_admin';
import * as m007 from './007_search';
import * as m008 from './008_shares';
import * as m009 from './009_tags';
import * as m010 from './010_operation_log';
import * as m011 from './011_rate_limits';
import * as m012 from './012_object_deletions';
import * as m013 from './013_scale_indexes';
import * as m014 from './014_renditions';
import * as m015 from './015_mail_and_codes';
import * as m016 from './016_sso';
import * as m017 from './017_mail_groups';
import * as m018 from './018_mail_notices';
import * as m019 from './019_report_rollup';
import * as m020 from './020_imports';
import * as m021 from './021_completeness';
import * as m022 from './022_open_api';
import * as m023 from './023_asset_changes_webhooks';
import * as m024 from './024_composition';
import * as m025 from './025_fingerprints';
import * as m026 from './026_file_summary_function';
import * as m027 from './027_preview_pending_index';
import * as m028 from './028_webhook_receiver_lanes';
import * as m029 from './029_listing_sorts';
import * as m030 from './030_view_openings';
import * as m031 from './031_colour_families';
import * as m032 from './032_items_counter_room';
import * as m033 from './033_view_codes_any_script';
import * as m034 from './034_jobs_function_code';
import * as m035 from './035_embedded_metadata';
import * as m036 from './036_download_metadata';
import * as m037 from './037_metadata_tag_mapping';
import * as m038 from './038_metadata_search';
import * as m039 from './039_collections';
import * as m040 from './040_review';
import * as m041 from './041_collection_shares';

/**
 * Numbered, forward-only migrations, applied in order at start-up. Never edit one that has
 * shipped; add the next number instead.
 */
export const migrations: Record<string, Migration> = {
  '001_accounts': m001,
  '002_items': m002,
  '003_uploads': m003,
  '004_sku': m004,
  '005_download_presets': m005,
  '006_accounts_admin': m006,
  '007_search': m007,
  '008_shares': m008,
  '009_tags': m009,
  '010_operation_log': m010,
  '011_rate_limits': m011,
  '012_object_deletions': m012,
  '013_scale_indexes': m013,
  '014_renditions': m014,
  '015_mail_and_codes': m015,
  '016_sso': m016,
  '017_mail_groups': m017,
  '018_mail_notices': m018,
  '019_report_rollup': m019,
  '020_imports': m020,
  '021_completeness': m021,
  '022_open_api': m022,
  '023_asset_changes_webhooks': m023,
  '024_composition': m024,
  '025_fingerprints': m025,
  '026_file_summary_function': m026,
  '027_preview_pending_index': m027,
  '028_webhook_receiver_lanes': m028,
  '029_listing_sorts': m029,
  '030_view_openings': m030,
  '031_colour_families': m031,
  '032_items_counter_room': m032,
  '033_view_codes_any_script': m033,
  '034_jobs_function_code': m034,
  '035_embedded_metadata': m035,
  '036_download_metadata': m036,
  '037_metadata_tag_mapping': m037,
  '038_metadata_search': m038,
  '039_collections': m039,
  '040_review': m040,
  '041_collection_shares': m041,
};
