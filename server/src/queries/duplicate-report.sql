-- The SQL behind duplicate-report, written by server/test/queries.test.ts from the repositories' real calls
-- (issue 41 item 6). Do not edit: after a query changes, run `npm run sync:sql` and commit this file.

-- DuplicateReportRepository.pairs, archive-wide
SELECT least(ua.item_id, ub.item_id) AS item_a,
  greatest(ua.item_id, ub.item_id) AS item_b,
  min(p.distance)::int AS distance
FROM near_duplicate_pairs p
JOIN uploads ua ON ua.id = p.upload_a
JOIN uploads ub ON ub.id = p.upload_b
JOIN items ia ON ia.id = ua.item_id
JOIN items ib ON ib.id = ub.item_id
WHERE p.distance <= $1
  AND p.colour_distance <= $2
  AND "ia"."state" = $3
  AND "ua"."status" = $4
  AND NOT "ua"."hidden"
  AND "ib"."state" = $5
  AND "ub"."status" = $6
  AND NOT "ub"."hidden"
  AND ia.id <> ib.id
GROUP BY 1, 2
LIMIT $7;

-- DuplicateReportRepository.pairs, a department
WITH scoped AS MATERIALIZED (
  SELECT u.id AS upload_id,
    u.item_id
  FROM items i
  JOIN uploads u ON u.item_id = i.id
  WHERE "i"."state" = $1
    AND "u"."status" = $2
    AND NOT "u"."hidden"
    AND i.dept_path LIKE $3)
SELECT least(a.item_id, b.item_id) AS item_a,
  greatest(a.item_id, b.item_id) AS item_b,
  min(p.distance)::int AS distance
FROM scoped a
JOIN near_duplicate_pairs p ON p.upload_a = a.upload_id
JOIN scoped b ON b.upload_id = p.upload_b
WHERE p.distance <= $4
  AND p.colour_distance <= $5
  AND a.item_id <> b.item_id
GROUP BY 1, 2
LIMIT $6;

-- DuplicateReportRepository.pairs, a folder in a department
WITH scoped AS MATERIALIZED (
  SELECT u.id AS upload_id,
    u.item_id
  FROM items i
  JOIN uploads u ON u.item_id = i.id
  WHERE "i"."state" = $1
    AND "u"."status" = $2
    AND NOT "u"."hidden"
    AND i.dept_path LIKE $3
    AND i.id_path LIKE $4)
SELECT least(a.item_id, b.item_id) AS item_a,
  greatest(a.item_id, b.item_id) AS item_b,
  min(p.distance)::int AS distance
FROM scoped a
JOIN near_duplicate_pairs p ON p.upload_a = a.upload_id
JOIN scoped b ON b.upload_id = p.upload_b
WHERE p.distance <= $5
  AND p.colour_distance <= $6
  AND a.item_id <> b.item_id
GROUP BY 1, 2
LIMIT $7;

-- DuplicateReportRepository.visibleMembers
select "items"."id",
  "items"."total_size",
  "items"."created_at",
  "items"."dept_path",
  "newest"."pixels"
from "items"
left join lateral (
  select coalesce(uploads.width, 0)::bigint * coalesce(uploads.height, 0) as "pixels"
  from "uploads"
  where "uploads"."item_id" = "items"."id"
    and "uploads"."status" = $1
    and "uploads"."hidden" = $2
  order by "uploads"."id" desc
  limit $3) as "newest" on true
where "items"."id" in ($4)
  and "items"."state" = $5
  and ("items"."owner_id" = $6 or ("items"."visibility" = $7 and "items"."dept_path" like $8));

-- DuplicateReportRepository.departmentPath
select "path"
from "departments"
where "id" = $1;

-- DuplicateReportRepository.departmentNames
select "path",
  "name"
from "departments"
where "path" in ($1);
