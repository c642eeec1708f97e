-- The SQL behind reports-rollup, written by server/test/queries.test.ts from the repositories' real calls
-- (issue 41 item 6). Do not edit: after a query changes, run `npm run sync:sql` and commit this file.

-- ReportsRepository.rollUp [1/15]
INSERT INTO report_rollup_state (id, rolled_until, time_zone, updated_at)
VALUES (true, NULL, $1, $2)
ON CONFLICT (id) DO NOTHING;

-- ReportsRepository.rollUp [2/15]
SELECT rolled_until,
  time_zone
FROM report_rollup_state
WHERE id FOR UPDATE;

-- ReportsRepository.rollUp [3/15]
DELETE
FROM report_daily_dept;

-- ReportsRepository.rollUp [4/15]
DELETE
FROM report_daily_user;

-- ReportsRepository.rollUp [5/15]
DELETE
FROM report_monthly_user;

-- ReportsRepository.rollUp [6/15]
SELECT (min(created_at) AT TIME ZONE $1)::date AS day
FROM operation_logs;

-- ReportsRepository.rollUp [7/15]
DELETE
FROM report_daily_dept
WHERE day >= $1::date
  AND day < $2::date;

-- ReportsRepository.rollUp [8/15]
DELETE
FROM report_daily_user
WHERE day >= $1::date
  AND day < $2::date;

-- ReportsRepository.rollUp [9/15]
WITH f AS (
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
  LEFT JOIN users u ON u.id = l.user_id), by_dept AS (
    INSERT INTO report_daily_dept (day, dept_id, file_type, uploads, upload_bytes, downloads, share_downloads, views, shares, share_visits)
    SELECT f.day,
      f.dept_id,
      f.file_type,
      sum(f.uploads)::integer AS uploads,
      sum(f.upload_bytes)::bigint AS upload_bytes,
      sum(f.downloads)::integer AS downloads,
      sum(f.share_downloads)::integer AS share_downloads,
      sum(f.views)::integer AS views,
      sum(f.shares)::integer AS shares,
      sum(f.share_visits)::integer AS share_visits
    FROM f
    GROUP BY 1, 2, 3)
INSERT INTO report_daily_user (day, user_id, dept_id, uploads, upload_bytes, downloads, share_downloads, views, shares, share_visits)
SELECT f.day,
  f.user_id,
  f.dept_id,
  sum(f.uploads)::integer AS uploads,
  sum(f.upload_bytes)::bigint AS upload_bytes,
  sum(f.downloads)::integer AS downloads,
  sum(f.share_downloads)::integer AS share_downloads,
  sum(f.views)::integer AS views,
  sum(f.shares)::integer AS shares,
  sum(f.share_visits)::integer AS share_visits
FROM f
GROUP BY 1, 2, 3;

-- ReportsRepository.rollUp [10/15]
DELETE
FROM report_monthly_user
WHERE month >= date_trunc('month', $1::date)
  AND month < $2::date;

-- ReportsRepository.rollUp [11/15]
INSERT INTO report_monthly_user (month, user_id, dept_id, uploads, upload_bytes, downloads, share_downloads, views, shares, share_visits)
SELECT date_trunc('month', f.day)::date,
  f.user_id,
  f.dept_id,
  sum(f.uploads)::integer AS uploads,
  sum(f.upload_bytes)::bigint AS upload_bytes,
  sum(f.downloads)::integer AS downloads,
  sum(f.share_downloads)::integer AS share_downloads,
  sum(f.views)::integer AS views,
  sum(f.shares)::integer AS shares,
  sum(f.share_visits)::integer AS share_visits
FROM report_daily_user f
WHERE f.day >= date_trunc('month', $1::date)
  AND f.day < $2::date
GROUP BY 1, 2, 3;

-- ReportsRepository.rollUp [12/15]
DELETE
FROM report_storage;

-- ReportsRepository.rollUp [13/15]
INSERT INTO report_storage (user_id, file_type, files, bytes)
SELECT i.owner_id,
  report_file_type(up.format),
  count(*),
  sum(up.file_size)::bigint
FROM uploads up
JOIN items i ON i.id = up.item_id
WHERE up.status = $1
GROUP BY 1, 2;

-- ReportsRepository.rollUp [14/15]
UPDATE report_rollup_state
SET rolled_until = $1::date, time_zone = $2, storage_at = $3, updated_at = $4
WHERE id;

-- ReportsRepository.rollUp [15/15]
ANALYZE report_daily_dept, report_daily_user, report_monthly_user, report_storage;
