-- The SQL behind reports, written by server/test/queries.test.ts from the repositories' real calls
-- (issue 41 item 6). Do not edit: after a query changes, run `npm run sync:sql` and commit this file.

-- ReportsRepository.state
select *
from "report_rollup_state";

-- ReportsRepository.report by department, rolled-up days and the live rest [1/3]
SET LOCAL jit = off;

-- ReportsRepository.report by department, rolled-up days and the live rest [2/3]
SET LOCAL max_parallel_workers_per_gather = 0;

-- ReportsRepository.report by department, rolled-up days and the live rest [3/3]
WITH live AS MATERIALIZED (
  SELECT l.day,
    l.user_id,
    u.dept_id,
    l.file_type,
    l.uploads,
    l.upload_bytes,
    l.downloads,
    l.share_downloads,
    l.views,
    l.shares,
    l.share_visits
  FROM (
    SELECT (l.created_at AT TIME ZONE $1)::date AS day,
      CASE
        WHEN l.operator_code IN ($2, $3) THEN (l.details->>'ownerId')::integer
        ELSE l.operator_id END AS user_id,
      CASE
        WHEN l.operator_code = $4 AND l.details ? 'format' THEN report_file_type(l.details->>'format')
        WHEN l.operator_code = $5 AND l.new_value IS NOT NULL THEN report_file_type(l.new_value)
      -- One item (most entries): joined, not looked up by a subquery per entry.
        WHEN cardinality(l.item_ids) = 1 THEN coalesce(CASE WHEN one.type = $6 THEN 'folder' WHEN strpos(one.file_formats, ',') = 0 THEN report_file_type(one.file_formats) ELSE report_item_type(one.file_formats) END, 'other')
        ELSE coalesce((
          SELECT CASE
              WHEN min(t.type) = max(t.type) THEN min(t.type)
              ELSE 'mixed' END
          FROM (
            SELECT CASE
                WHEN i.type = $7 THEN 'folder'
                WHEN strpos(i.file_formats, ',') = 0 THEN report_file_type(i.file_formats)
                ELSE report_item_type(i.file_formats) END AS type
            FROM items i
            WHERE i.id = ANY (l.item_ids)) t), 'other') END AS file_type,
      count(*) FILTER (WHERE l.operator_code = $8)::integer AS uploads,
      coalesce(sum((l.details->>'fileSize')::bigint) FILTER (WHERE l.operator_code = $9), 0)::bigint AS upload_bytes,
      count(*) FILTER (WHERE l.operator_code = $10)::integer AS downloads,
      count(*) FILTER (WHERE l.operator_code = $11)::integer AS share_downloads,
      count(*) FILTER (WHERE l.operator_code = $12)::integer AS views,
      count(*) FILTER (WHERE l.operator_code = $13)::integer AS shares,
      count(*) FILTER (WHERE l.operator_code = $14)::integer AS share_visits
    FROM operation_logs l
    LEFT JOIN items one ON cardinality(l.item_ids) = 1
      AND one.id = l.item_ids[1]
    WHERE l.operator_code IN ($15, $16, $17, $18, $19, $20)
      AND l.created_at >= (($21::date)::timestamp AT TIME ZONE $22)
      AND l.created_at < (($23::date)::timestamp AT TIME ZONE $24)
    GROUP BY 1, 2, 3) l
  LEFT JOIN users u ON u.id = l.user_id)
SELECT grouping(date_trunc('week', f.day)::date::text) AS key_row,
  date_trunc('week', f.day)::date::text AS bucket,
  coalesce(f.dept_id, 0)::text AS key,
  sum(f.uploads)::integer AS uploads,
  sum(f.upload_bytes)::bigint AS upload_bytes,
  sum(f.downloads)::integer AS downloads,
  sum(f.share_downloads)::integer AS share_downloads,
  sum(f.views)::integer AS views,
  sum(f.shares)::integer AS shares,
  sum(f.share_visits)::integer AS share_visits
FROM (
  SELECT *
  FROM (
    SELECT day,
      dept_id,
      file_type,
      NULL::integer AS user_id,
      uploads,
      upload_bytes,
      downloads,
      share_downloads,
      views,
      shares,
      share_visits
    FROM "report_daily_dept"
    WHERE day >= $25::date
      AND day < $26::date
    UNION ALL
    SELECT day,
      dept_id,
      file_type,
      user_id,
      uploads,
      upload_bytes,
      downloads,
      share_downloads,
      views,
      shares,
      share_visits
    FROM live) f
  WHERE f.dept_id IN (
    SELECT id
    FROM departments
    WHERE path LIKE $27)) f
GROUP BY GROUPING SETS ((date_trunc('week', f.day)::date::text), (coalesce(f.dept_id, 0)::text));

-- ReportsRepository.report by user, rolled-up days and the live rest [1/3]
SET LOCAL jit = off;

-- ReportsRepository.report by user, rolled-up days and the live rest [2/3]
SET LOCAL max_parallel_workers_per_gather = 0;

-- ReportsRepository.report by user, rolled-up days and the live rest [3/3]
WITH live AS MATERIALIZED (
  SELECT l.day,
    l.user_id,
    u.dept_id,
    l.file_type,
    l.uploads,
    l.upload_bytes,
    l.downloads,
    l.share_downloads,
    l.views,
    l.shares,
    l.share_visits
  FROM (
    SELECT (l.created_at AT TIME ZONE $1)::date AS day,
      CASE
        WHEN l.operator_code IN ($2, $3) THEN (l.details->>'ownerId')::integer
        ELSE l.operator_id END AS user_id,
      CASE
        WHEN l.operator_code = $4 AND l.details ? 'format' THEN report_file_type(l.details->>'format')
        WHEN l.operator_code = $5 AND l.new_value IS NOT NULL THEN report_file_type(l.new_value)
      -- One item (most entries): joined, not looked up by a subquery per entry.
        WHEN cardinality(l.item_ids) = 1 THEN coalesce(CASE WHEN one.type = $6 THEN 'folder' WHEN strpos(one.file_formats, ',') = 0 THEN report_file_type(one.file_formats) ELSE report_item_type(one.file_formats) END, 'other')
        ELSE coalesce((
          SELECT CASE
              WHEN min(t.type) = max(t.type) THEN min(t.type)
              ELSE 'mixed' END
          FROM (
            SELECT CASE
                WHEN i.type = $7 THEN 'folder'
                WHEN strpos(i.file_formats, ',') = 0 THEN report_file_type(i.file_formats)
                ELSE report_item_type(i.file_formats) END AS type
            FROM items i
            WHERE i.id = ANY (l.item_ids)) t), 'other') END AS file_type,
      count(*) FILTER (WHERE l.operator_code = $8)::integer AS uploads,
      coalesce(sum((l.details->>'fileSize')::bigint) FILTER (WHERE l.operator_code = $9), 0)::bigint AS upload_bytes,
      count(*) FILTER (WHERE l.operator_code = $10)::integer AS downloads,
      count(*) FILTER (WHERE l.operator_code = $11)::integer AS share_downloads,
      count(*) FILTER (WHERE l.operator_code = $12)::integer AS views,
      count(*) FILTER (WHERE l.operator_code = $13)::integer AS shares,
      count(*) FILTER (WHERE l.operator_code = $14)::integer AS share_visits
    FROM operation_logs l
    LEFT JOIN items one ON cardinality(l.item_ids) = 1
      AND one.id = l.item_ids[1]
    WHERE l.operator_code IN ($15, $16, $17, $18, $19, $20)
      AND l.created_at >= (($21::date)::timestamp AT TIME ZONE $22)
      AND l.created_at < (($23::date)::timestamp AT TIME ZONE $24)
    GROUP BY 1, 2, 3) l
  LEFT JOIN users u ON u.id = l.user_id)
SELECT 0 AS key_row,
  date_trunc('week', f.day)::date::text AS bucket,
  NULL AS key,
  sum(f.uploads)::integer AS uploads,
  sum(f.upload_bytes)::bigint AS upload_bytes,
  sum(f.downloads)::integer AS downloads,
  sum(f.share_downloads)::integer AS share_downloads,
  sum(f.views)::integer AS views,
  sum(f.shares)::integer AS shares,
  sum(f.share_visits)::integer AS share_visits
FROM (
  SELECT *
  FROM (
    SELECT day,
      dept_id,
      file_type,
      NULL::integer AS user_id,
      uploads,
      upload_bytes,
      downloads,
      share_downloads,
      views,
      shares,
      share_visits
    FROM "report_daily_dept"
    WHERE day >= $25::date
      AND day < $26::date
    UNION ALL
    SELECT day,
      dept_id,
      file_type,
      user_id,
      uploads,
      upload_bytes,
      downloads,
      share_downloads,
      views,
      shares,
      share_visits
    FROM live) f
  WHERE f.dept_id IN (
    SELECT id
    FROM departments
    WHERE path LIKE $27)) f
GROUP BY date_trunc('week', f.day)::date::text
UNION ALL
SELECT 1 AS key_row,
  NULL AS bucket,
  coalesce(f.user_id, 0)::text AS key,
  sum(f.uploads)::integer AS uploads,
  sum(f.upload_bytes)::bigint AS upload_bytes,
  sum(f.downloads)::integer AS downloads,
  sum(f.share_downloads)::integer AS share_downloads,
  sum(f.views)::integer AS views,
  sum(f.shares)::integer AS shares,
  sum(f.share_visits)::integer AS share_visits
FROM (
  SELECT *
  FROM (
    SELECT day,
      dept_id,
      NULL::text AS file_type,
      user_id,
      uploads,
      upload_bytes,
      downloads,
      share_downloads,
      views,
      shares,
      share_visits
    FROM "report_daily_user"
    WHERE day >= $28::date
      AND day < $29::date
    UNION ALL
    SELECT day,
      dept_id,
      file_type,
      user_id,
      uploads,
      upload_bytes,
      downloads,
      share_downloads,
      views,
      shares,
      share_visits
    FROM live) f
  WHERE f.dept_id IN (
    SELECT id
    FROM departments
    WHERE path LIKE $30)) f
GROUP BY coalesce(f.user_id, 0)::text;

-- ReportsRepository.report by fileType, rolled-up days and the live rest [1/3]
SET LOCAL jit = off;

-- ReportsRepository.report by fileType, rolled-up days and the live rest [2/3]
SET LOCAL max_parallel_workers_per_gather = 0;

-- ReportsRepository.report by fileType, rolled-up days and the live rest [3/3]
WITH live AS MATERIALIZED (
  SELECT l.day,
    l.user_id,
    u.dept_id,
    l.file_type,
    l.uploads,
    l.upload_bytes,
    l.downloads,
    l.share_downloads,
    l.views,
    l.shares,
    l.share_visits
  FROM (
    SELECT (l.created_at AT TIME ZONE $1)::date AS day,
      CASE
        WHEN l.operator_code IN ($2, $3) THEN (l.details->>'ownerId')::integer
        ELSE l.operator_id END AS user_id,
      CASE
        WHEN l.operator_code = $4 AND l.details ? 'format' THEN report_file_type(l.details->>'format')
        WHEN l.operator_code = $5 AND l.new_value IS NOT NULL THEN report_file_type(l.new_value)
      -- One item (most entries): joined, not looked up by a subquery per entry.
        WHEN cardinality(l.item_ids) = 1 THEN coalesce(CASE WHEN one.type = $6 THEN 'folder' WHEN strpos(one.file_formats, ',') = 0 THEN report_file_type(one.file_formats) ELSE report_item_type(one.file_formats) END, 'other')
        ELSE coalesce((
          SELECT CASE
              WHEN min(t.type) = max(t.type) THEN min(t.type)
              ELSE 'mixed' END
          FROM (
            SELECT CASE
                WHEN i.type = $7 THEN 'folder'
                WHEN strpos(i.file_formats, ',') = 0 THEN report_file_type(i.file_formats)
                ELSE report_item_type(i.file_formats) END AS type
            FROM items i
            WHERE i.id = ANY (l.item_ids)) t), 'other') END AS file_type,
      count(*) FILTER (WHERE l.operator_code = $8)::integer AS uploads,
      coalesce(sum((l.details->>'fileSize')::bigint) FILTER (WHERE l.operator_code = $9), 0)::bigint AS upload_bytes,
      count(*) FILTER (WHERE l.operator_code = $10)::integer AS downloads,
      count(*) FILTER (WHERE l.operator_code = $11)::integer AS share_downloads,
      count(*) FILTER (WHERE l.operator_code = $12)::integer AS views,
      count(*) FILTER (WHERE l.operator_code = $13)::integer AS shares,
      count(*) FILTER (WHERE l.operator_code = $14)::integer AS share_visits
    FROM operation_logs l
    LEFT JOIN items one ON cardinality(l.item_ids) = 1
      AND one.id = l.item_ids[1]
    WHERE l.operator_code IN ($15, $16, $17, $18, $19, $20)
      AND l.created_at >= (($21::date)::timestamp AT TIME ZONE $22)
      AND l.created_at < (($23::date)::timestamp AT TIME ZONE $24)
    GROUP BY 1, 2, 3) l
  LEFT JOIN users u ON u.id = l.user_id)
SELECT grouping(date_trunc('week', f.day)::date::text) AS key_row,
  date_trunc('week', f.day)::date::text AS bucket,
  f.file_type AS key,
  sum(f.uploads)::integer AS uploads,
  sum(f.upload_bytes)::bigint AS upload_bytes,
  sum(f.downloads)::integer AS downloads,
  sum(f.share_downloads)::integer AS share_downloads,
  sum(f.views)::integer AS views,
  sum(f.shares)::integer AS shares,
  sum(f.share_visits)::integer AS share_visits
FROM (
  SELECT *
  FROM (
    SELECT day,
      dept_id,
      file_type,
      NULL::integer AS user_id,
      uploads,
      upload_bytes,
      downloads,
      share_downloads,
      views,
      shares,
      share_visits
    FROM "report_daily_dept"
    WHERE day >= $25::date
      AND day < $26::date
    UNION ALL
    SELECT day,
      dept_id,
      file_type,
      user_id,
      uploads,
      upload_bytes,
      downloads,
      share_downloads,
      views,
      shares,
      share_visits
    FROM live) f
  WHERE f.dept_id IN (
    SELECT id
    FROM departments
    WHERE path LIKE $27)) f
GROUP BY GROUPING SETS ((date_trunc('week', f.day)::date::text), (f.file_type));

-- ReportsRepository.storage by department, since the count
WITH s AS (
  SELECT user_id,
    file_type,
    files,
    bytes
  FROM report_storage
  UNION ALL
  SELECT i.owner_id AS user_id,
    report_file_type(up.format) AS file_type,
    1 AS files,
    up.file_size AS bytes
  FROM uploads up
  JOIN items i ON i.id = up.item_id
  WHERE up.status = $1
    AND up.completed_at > $2)
SELECT coalesce(u.dept_id, 0)::text AS key,
  sum(s.bytes)::bigint AS bytes,
  sum(s.files)::integer AS files
FROM s
LEFT JOIN users u ON u.id = s.user_id
WHERE u.dept_id IN (
  SELECT id
  FROM departments
  WHERE path LIKE $3)
GROUP BY 1;

-- ReportsRepository.department
select "id",
  "name",
  "path"
from "departments"
where "id" = $1;

-- ReportsRepository.userNames
select "id",
  "name"
from "users"
where "id" in ($1);
