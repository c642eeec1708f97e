-- The SQL behind downloads, written by server/test/queries.test.ts from the repositories' real calls
-- (issue 41 item 6). Do not edit: after a query changes, run `npm run sync:sql` and commit this file.

-- DownloadsRepository.itemsByIds
select "id",
  "type",
  "name",
  "folder_path",
  "id_path",
  "owner_id",
  "visibility",
  "dept_path",
  "state"
from "items"
where "id" = ANY($1::bigint[]);

-- DownloadsRepository.recordsByIds
select "items"."id" as "item_id",
  "items"."name" as "item_name",
  "items"."folder_path" as "item_folder_path",
  "items"."art_num",
  "items"."owner_id",
  "items"."visibility",
  "items"."dept_path",
  "items"."state",
  "uploads"."id" as "upload_id",
  "uploads"."format",
  "uploads"."file_name",
  "uploads"."file_size",
  "uploads"."storage_key",
  "uploads"."width",
  "uploads"."height"
from "uploads"
inner join "items" on "items"."id" = "uploads"."item_id"
where "uploads"."id" in ($1, $2)
  and "uploads"."status" = $3;

-- DownloadsRepository.sourcesOfRoots, a file and a folder
select "items"."id" as "item_id",
  "items"."name" as "item_name",
  "items"."folder_path" as "item_folder_path",
  "items"."art_num",
  "items"."owner_id",
  "items"."visibility",
  "items"."dept_path",
  "items"."id_path",
  "items"."expire_start_date",
  "items"."expire_end_date",
  "latest"."upload_id",
  "latest"."format",
  "latest"."file_name",
  "latest"."file_size",
  "latest"."storage_key",
  "latest"."width",
  "latest"."height"
from "items"
inner join lateral (
  select distinct on ("uploads"."format") "uploads"."id" as "upload_id",
    "uploads"."format",
    "uploads"."file_name",
    "uploads"."file_size",
    "uploads"."storage_key",
    "uploads"."width",
    "uploads"."height"
  from "uploads"
  where "uploads"."item_id" = "items"."id"
    and "uploads"."status" = 2
    and "uploads"."hidden" = false
  order by "uploads"."format", "uploads"."completed_at" desc, "uploads"."id" desc) as "latest" on true
where "items"."state" = 1
  and "items"."type" <> 1
  and ("items"."owner_id" = $1 or ("items"."visibility" = $2 and "items"."dept_path" like $3))
  and ("items"."id" = ANY($4::bigint[]) or "items"."id_path" like $5)
order by "items"."folder_path", lower(items.name), "latest"."format";

-- DownloadsRepository.sourcesOf [1/2]
select "id",
  "type",
  "id_path"
from "items"
where "id" = ANY($1::bigint[])
  and "state" = 1;

-- DownloadsRepository.sourcesOf [2/2]
select "items"."id" as "item_id",
  "items"."name" as "item_name",
  "items"."folder_path" as "item_folder_path",
  "items"."art_num",
  "items"."owner_id",
  "items"."visibility",
  "items"."dept_path",
  "items"."id_path",
  "items"."expire_start_date",
  "items"."expire_end_date",
  "latest"."upload_id",
  "latest"."format",
  "latest"."file_name",
  "latest"."file_size",
  "latest"."storage_key",
  "latest"."width",
  "latest"."height"
from "items"
inner join lateral (
  select distinct on ("uploads"."format") "uploads"."id" as "upload_id",
    "uploads"."format",
    "uploads"."file_name",
    "uploads"."file_size",
    "uploads"."storage_key",
    "uploads"."width",
    "uploads"."height"
  from "uploads"
  where "uploads"."item_id" = "items"."id"
    and "uploads"."status" = 2
    and "uploads"."hidden" = false
  order by "uploads"."format", "uploads"."completed_at" desc, "uploads"."id" desc) as "latest" on true
where "items"."state" = 1
  and "items"."type" <> 1
  and ("items"."owner_id" = $1 or ("items"."visibility" = $2 and "items"."dept_path" like $3))
  and "items"."id_path" like $4
order by "items"."folder_path", lower(items.name), "latest"."format";

-- DownloadsRepository.sourcesByArtNums
select "items"."id" as "item_id",
  "items"."name" as "item_name",
  "items"."folder_path" as "item_folder_path",
  "items"."art_num",
  "items"."owner_id",
  "items"."visibility",
  "items"."dept_path",
  "items"."id_path",
  "items"."expire_start_date",
  "items"."expire_end_date",
  "latest"."upload_id",
  "latest"."format",
  "latest"."file_name",
  "latest"."file_size",
  "latest"."storage_key",
  "latest"."width",
  "latest"."height"
from "items"
inner join lateral (
  select distinct on ("uploads"."format") "uploads"."id" as "upload_id",
    "uploads"."format",
    "uploads"."file_name",
    "uploads"."file_size",
    "uploads"."storage_key",
    "uploads"."width",
    "uploads"."height"
  from "uploads"
  where "uploads"."item_id" = "items"."id"
    and "uploads"."status" = 2
    and "uploads"."hidden" = false
  order by "uploads"."format", "uploads"."completed_at" desc, "uploads"."id" desc) as "latest" on true
where "items"."state" = 1
  and "items"."type" <> 1
  and ("items"."owner_id" = $1 or ("items"."visibility" = $2 and "items"."dept_path" like $3))
  and "items"."art_num" is not null
  and (lower(items.art_num) COLLATE "C") IN (
    SELECT unnest($4::text[]))
order by "items"."folder_path", lower(items.name), "latest"."format";

-- DownloadsRepository.countDownloads
update "items"
set "download_count" = "download_count" + $1
where "id" = ANY($2::bigint[]);
