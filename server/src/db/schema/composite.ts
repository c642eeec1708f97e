import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Timestamp } from './columns';

/** Detail-page composition: templates, their versions, assets, jobs and outputs. */

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
