import { type Kysely, sql } from 'kysely';

/**
 * Data reports (issue 14, SPEC §2 /manage/data-table): a daily rollup of the operation log, so a
 * year of a 500-person company's events is summed in milliseconds instead of scanning a million
 * log rows. The rollup job (hourly) fills whole past days, in the business time zone, and moves
 * `report_rollup_state.rolled_until` forward; a report reads the rollup before that day and the
 * log itself from it on (the few hours since), so figures are exact the moment an event is logged.
 * The rollup is derived data: it can be dropped and rebuilt from the log at any time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The file type of a format (extension), as reports group it.
  await sql`
    CREATE FUNCTION report_file_type(format text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT CASE
        WHEN lower(format) IN ('jpg','jpeg','png','gif','bmp','webp','tif','tiff','heic','heif','svg','raw','cr2','nef','arw','dng')
          THEN 'image'
        WHEN lower(format) IN ('psd','psb','ai','eps','cdr','sketch','indd','fig','xd','dwg','dxf','obj','fbx','stl','3ds','max','blend','c4d')
          THEN 'design'
        WHEN lower(format) IN ('mp4','mov','avi','mkv','wmv','m4v','webm','flv','mpg','mpeg','3gp')
          THEN 'video'
        WHEN lower(format) IN ('pdf','doc','docx','xls','xlsx','ppt','pptx','txt','csv','rtf','key','pages','numbers','odt','ods','odp')
          THEN 'document'
        ELSE 'other'
      END
    $$`.execute(db);

  // The file type of an item of several formats (`jpg,psd`): an image with its master is an image.
  await sql`
    CREATE FUNCTION report_item_type(formats text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT coalesce((
        SELECT t FROM unnest(string_to_array(formats, ',')) AS f CROSS JOIN LATERAL report_file_type(f) AS t
        ORDER BY array_position(ARRAY['image','video','design','document','other'], t) LIMIT 1
      ), 'other')
    $$`.execute(db);

  // Two daily rollups, each as small as its questions allow (a year of a 500-person company:
  // ~90,000 and ~150,000 rows rather than the ~1.4 million log entries). By department and file
  // type: the trend, the totals and the department and file-type tables. By person: the table of
  // people. `dept_id` is the person's department when the day was rolled up (null: none, or a
  // share visitor whose link's owner is unknown).
  const figures = sql`
      uploads integer NOT NULL DEFAULT 0,
      upload_bytes bigint NOT NULL DEFAULT 0,
      downloads integer NOT NULL DEFAULT 0,
      share_downloads integer NOT NULL DEFAULT 0,
      views integer NOT NULL DEFAULT 0,
      shares integer NOT NULL DEFAULT 0,
      share_visits integer NOT NULL DEFAULT 0`;
  await sql`
    CREATE TABLE report_daily_dept (
      day date NOT NULL,
      dept_id integer,
      file_type text NOT NULL,
      ${figures}
    )`.execute(db);
  await sql`CREATE INDEX report_daily_dept_day ON report_daily_dept (day)`.execute(db);
  await sql`
    CREATE TABLE report_daily_user (
      day date NOT NULL,
      user_id integer,
      dept_id integer,
      ${figures}
    )`.execute(db);
  await sql`CREATE INDEX report_daily_user_day ON report_daily_user (day)`.execute(db);
  // The person rollup summed by month (the rolled days of each month): a year's table of people
  // reads ~6,000 rows, plus the days of the period's first and last month that are not whole.
  await sql`
    CREATE TABLE report_monthly_user (
      month date NOT NULL,
      user_id integer,
      dept_id integer,
      ${figures}
    )`.execute(db);
  await sql`CREATE INDEX report_monthly_user_month ON report_monthly_user (month)`.execute(db);

  // How far the rollup has got: days before `rolled_until` are in the rollups, counted in `time_zone`.
  await sql`
    CREATE TABLE report_rollup_state (
      id boolean PRIMARY KEY DEFAULT true CHECK (id),
      rolled_until date,
      time_zone text NOT NULL,
      -- when report_storage was last computed
      storage_at timestamptz,
      updated_at timestamptz NOT NULL
    )`.execute(db);

  // Storage used, by owner and file type, as of the last rollup (`storage_at`): summing every
  // upload record of a company's whole history is too slow for a report. A report adds the files
  // finished since (index below); files deleted since drop out at the next rollup.
  await sql`
    CREATE TABLE report_storage (
      user_id integer NOT NULL,
      file_type text NOT NULL,
      files integer NOT NULL,
      bytes bigint NOT NULL,
      PRIMARY KEY (user_id, file_type)
    )`.execute(db);
  await sql`CREATE INDEX uploads_completed ON uploads (completed_at) WHERE status = 2`.execute(db);
}
