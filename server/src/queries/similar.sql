-- The SQL behind similar, written by server/test/queries.test.ts from the repositories' real calls
-- (issue 41 item 6). Do not edit: after a query changes, run `npm run sync:sql` and commit this file.

-- SimilarRepository.itemFacts
select "id",
  "type",
  "owner_id",
  "visibility",
  "dept_path",
  "state",
  "id_path",
  "folder_path",
  "name"
from "items"
where "id" = $1;

-- SimilarRepository.itemUploads
select "uploads"."id",
  "media_fingerprints"."status" as "fingerprint",
  media_fingerprints.hash::text as "hash"
from "uploads"
left join "media_fingerprints" on "media_fingerprints"."upload_id" = "uploads"."id"
where "uploads"."item_id" = $1
  and "uploads"."status" = $2
  and "uploads"."hidden" = $3
order by uploads.completed_at DESC NULLS LAST, "uploads"."id" desc
limit $4;

-- SimilarRepository.lookup, in what the caller sees
select "h"."upload_id",
  "uploads"."item_id",
  bit_count((h.hash # $1::bigint)::bit(64))::int as "distance",
  "uploads"."width",
  "uploads"."height"
from (
  select "upload_id",
    "hash"
  from "media_fingerprints"
  where "hash" is not null
    and "b0" = ANY($2::smallint[])
    and bit_count((hash # $3::bigint)::bit(64)) <= $4::int
  union
  select "upload_id",
    "hash"
  from "media_fingerprints"
  where "hash" is not null
    and "b1" = ANY($5::smallint[])
    and bit_count((hash # $6::bigint)::bit(64)) <= $7::int
  union
  select "upload_id",
    "hash"
  from "media_fingerprints"
  where "hash" is not null
    and "b2" = ANY($8::smallint[])
    and bit_count((hash # $9::bigint)::bit(64)) <= $10::int
  union
  select "upload_id",
    "hash"
  from "media_fingerprints"
  where "hash" is not null
    and "b3" = ANY($11::smallint[])
    and bit_count((hash # $12::bigint)::bit(64)) <= $13::int) as "h"
inner join "uploads" on "uploads"."id" = "h"."upload_id"
inner join "items" on "items"."id" = "uploads"."item_id"
where "uploads"."status" = $14
  and "uploads"."hidden" = $15
  and "items"."state" = $16
  and ("items"."owner_id" = $17 or ("items"."visibility" = $18 and "items"."dept_path" like $19))
  and "items"."id" not in ($20)
order by "distance", "h"."upload_id"
limit $21;

-- SimilarRepository.lookup, archive-wide (pairs)
select "h"."upload_id",
  "uploads"."item_id",
  bit_count((h.hash # $1::bigint)::bit(64))::int as "distance",
  "uploads"."width",
  "uploads"."height"
from (
  select "upload_id",
    "hash"
  from "media_fingerprints"
  where "hash" is not null
    and "b0" = ANY($2::smallint[])
    and bit_count((hash # $3::bigint)::bit(64)) <= $4::int
  union
  select "upload_id",
    "hash"
  from "media_fingerprints"
  where "hash" is not null
    and "b1" = ANY($5::smallint[])
    and bit_count((hash # $6::bigint)::bit(64)) <= $7::int
  union
  select "upload_id",
    "hash"
  from "media_fingerprints"
  where "hash" is not null
    and "b2" = ANY($8::smallint[])
    and bit_count((hash # $9::bigint)::bit(64)) <= $10::int
  union
  select "upload_id",
    "hash"
  from "media_fingerprints"
  where "hash" is not null
    and "b3" = ANY($11::smallint[])
    and bit_count((hash # $12::bigint)::bit(64)) <= $13::int) as "h"
inner join "uploads" on "uploads"."id" = "h"."upload_id"
inner join "items" on "items"."id" = "uploads"."item_id"
order by "distance", "h"."upload_id"
limit $14;

-- SimilarRepository.palettes
select "upload_id",
  "l",
  "a",
  "b",
  "weight"
from "media_colours"
where "upload_id" in ($1, $2)
order by "upload_id", "weight" desc, "slot";

-- SimilarRepository.itemPalette
select "l",
  "a",
  "b",
  "weight"
from "item_colours"
where "item_id" = $1
order by "weight" desc, "slot";

-- SimilarRepository.byColour
select "items"."id" as "item_id",
  "items"."created_at",
  (
    SELECT coalesce(json_agg(json_build_object('l', ic.l, 'a', ic.a, 'b', ic.b, 'w', ic.weight)), '[]'::json)
    FROM item_colours ic
    WHERE ic.item_id = items.id) as "colours"
from (
  SELECT c.item_id
  FROM unnest($1::smallint[]) AS wanted(cell)
  CROSS JOIN LATERAL (
    SELECT item_id,
      created_at
    FROM item_colours
    WHERE item_colours.cell = wanted.cell
    ORDER BY created_at DESC, item_id DESC
    LIMIT $2::int) c
  GROUP BY c.item_id
  ORDER BY max(c.created_at) DESC, c.item_id DESC
  LIMIT $3::int) as "cand"
inner join "items" on "items"."id" = "cand"."item_id"
where "items"."state" = $4
  and ("items"."owner_id" = $5 or ("items"."visibility" = $6 and "items"."dept_path" like $7))
  and "items"."id" not in ($8);

-- SimilarRepository.items
select "items"."id",
  "items"."name",
  "items"."folder_path",
  "items"."file_formats",
  "items"."cover_key",
  "items"."total_size",
  "items"."owner_id",
  "items"."visibility",
  "items"."dept_path",
  "items"."created_at",
  "users"."name" as "user_name",
  "newest"."width",
  "newest"."height"
from "items"
inner join "users" on "users"."id" = "items"."owner_id"
left join lateral (
  select "uploads"."width",
    "uploads"."height"
  from "uploads"
  where "uploads"."item_id" = "items"."id"
    and "uploads"."status" = $1
    and "uploads"."hidden" = $2
  order by uploads.completed_at DESC NULLS LAST, "uploads"."id" desc
  limit $3) as "newest" on true
where "items"."id" in ($4)
  and "items"."state" = $5
  and ("items"."owner_id" = $6 or ("items"."visibility" = $7 and "items"."dept_path" like $8));

-- SimilarRepository.ownUploads
select "uploads"."id",
  "uploads"."item_id",
  "uploads"."width",
  "uploads"."height",
  "media_fingerprints"."status" as "fingerprint",
  media_fingerprints.hash::text as "hash",
  uploads.item_id IS NOT NULL AND NOT EXISTS (
    SELECT 1
    FROM uploads other
    WHERE other.item_id = uploads.item_id
      AND other.id <> uploads.id) as "sole_record"
from "uploads"
left join "media_fingerprints" on "media_fingerprints"."upload_id" = "uploads"."id"
where "uploads"."id" in ($1, $2)
  and "uploads"."user_id" = $3;

-- SimilarRepository.fingerprintOf
select "uploads"."item_id",
  "media_fingerprints"."status",
  media_fingerprints.hash::text as "hash"
from "media_fingerprints"
inner join "uploads" on "uploads"."id" = "media_fingerprints"."upload_id"
where "media_fingerprints"."upload_id" = $1;
