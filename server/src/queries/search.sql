-- The SQL behind search, written by server/test/queries.test.ts from the repositories' real calls
-- (issue 41 item 6). Do not edit: after a query changes, run `npm run sync:sql` and commit this file.

-- SearchRepository.search, title contains
select "items".*,
  "users"."name" as "user_name",
  exists (
    select 1 as "one"
    from "collects"
    where "collects"."item_id" = "items"."id"
      and "collects"."user_id" = $1) as "collected"
from "items"
inner join "users" on "users"."id" = "items"."owner_id"
where "items"."state" = $2
  and ("items"."owner_id" = $3 or ("items"."visibility" = $4 and "items"."dept_path" like $5))
  and lower(items.name) LIKE $6
order by (items.type <> 1), "items"."created_at" desc, "items"."id" desc
limit $7
offset $8;

-- SearchRepository.search, article number contains, images, by name
select "items".*,
  "users"."name" as "user_name",
  exists (
    select 1 as "one"
    from "collects"
    where "collects"."item_id" = "items"."id"
      and "collects"."user_id" = $1) as "collected"
from "items"
inner join "users" on "users"."id" = "items"."owner_id"
where "items"."state" = $2
  and ("items"."owner_id" = $3 or ("items"."visibility" = $4 and "items"."dept_path" like $5))
  and "items"."type" in ($6)
  and "items"."art_num" is not null
  and lower(items.art_num) LIKE $7
order by (items.type <> 1), lower(items.name) asc, "items"."id" asc
limit $8
offset $9;

-- SearchRepository.search, batch (nameIn)
select "items".*,
  "users"."name" as "user_name",
  exists (
    select 1 as "one"
    from "collects"
    where "collects"."item_id" = "items"."id"
      and "collects"."user_id" = $1) as "collected"
from "items"
inner join "users" on "users"."id" = "items"."owner_id"
where "items"."state" = $2
  and ("items"."owner_id" = $3 or ("items"."visibility" = $4 and "items"."dept_path" like $5))
  and (lower(items.name) COLLATE "C") IN (
    SELECT unnest($6::text[]))
order by (items.type <> 1), "items"."created_at" desc, "items"."id" desc
limit $7
offset $8;

-- SearchRepository.matchedValues, batch (nameIn)
select distinct lower(items.name) as "value"
from "items"
inner join "users" on "users"."id" = "items"."owner_id"
where "items"."state" = $1
  and ("items"."owner_id" = $2 or ("items"."visibility" = $3 and "items"."dept_path" like $4))
  and (lower(items.name) COLLATE "C") IN (
    SELECT unnest($5::text[]));

-- SearchRepository.search, batch (artNumIn)
select "items".*,
  "users"."name" as "user_name",
  exists (
    select 1 as "one"
    from "collects"
    where "collects"."item_id" = "items"."id"
      and "collects"."user_id" = $1) as "collected"
from "items"
inner join "users" on "users"."id" = "items"."owner_id"
where "items"."state" = $2
  and ("items"."owner_id" = $3 or ("items"."visibility" = $4 and "items"."dept_path" like $5))
  and "items"."art_num" is not null
  and (lower(items.art_num) COLLATE "C") IN (
    SELECT unnest($6::text[]))
order by (items.type <> 1), "items"."created_at" desc, "items"."id" desc
limit $7
offset $8;

-- SearchRepository.matchedValues, batch (artNumIn)
select distinct lower(items.art_num) as "value"
from "items"
inner join "users" on "users"."id" = "items"."owner_id"
where "items"."state" = $1
  and ("items"."owner_id" = $2 or ("items"."visibility" = $3 and "items"."dept_path" like $4))
  and "items"."art_num" is not null
  and (lower(items.art_num) COLLATE "C") IN (
    SELECT unnest($5::text[]));

-- SearchRepository.search, title contains, a colour
select "items".*,
  "users"."name" as "user_name",
  exists (
    select 1 as "one"
    from "collects"
    where "collects"."item_id" = "items"."id"
      and "collects"."user_id" = $1) as "collected"
from "items"
inner join "users" on "users"."id" = "items"."owner_id"
where "items"."state" = $2
  and ("items"."owner_id" = $3 or ("items"."visibility" = $4 and "items"."dept_path" like $5))
  and exists (
    select 1 as "one"
    from "item_colour_families" as "icf"
    where "icf"."item_id" = "items"."id"
      and "icf"."family" = 1
      AND "icf"."share" >= 150)
  and lower(items.name) LIKE $6
order by (items.type <> 1), "items"."created_at" desc, "items"."id" desc
limit $7
offset $8;

-- SearchRepository.search, a colour alone (the colour walk)
select "items".*,
  "users"."name" as "user_name",
  exists (
    select 1 as "one"
    from "collects"
    where "collects"."item_id" = "items"."id"
      and "collects"."user_id" = $1) as "collected"
from (
  SELECT icf.item_id,
    icf.created_at
  FROM item_colour_families icf
  WHERE "icf"."family" = 1
    AND "icf"."share" >= 150
  ORDER BY icf.created_at DESC, icf.item_id DESC) as "x"
inner join "items" on "items"."id" = "x"."item_id"
inner join "users" on "users"."id" = "items"."owner_id"
where "items"."state" = $2
  and ("items"."owner_id" = $3 or ("items"."visibility" = $4 and "items"."dept_path" like $5))
  and "items"."type" in ($6)
order by x.created_at desc, x.item_id desc
limit $7
offset $8;
