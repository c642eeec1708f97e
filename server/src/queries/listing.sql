-- The SQL behind listing, written by server/test/queries.test.ts from the repositories' real calls
-- (issue 41 item 6). Do not edit: after a query changes, run `npm run sync:sql` and commit this file.

-- ItemsRepository.findById (the folder)
select "items".*,
  "users"."name" as "user_name",
  exists (
    select 1 as "one"
    from "collects"
    where "collects"."item_id" = "items"."id"
      and "collects"."user_id" = $1) as "collected"
from "items"
inner join "users" on "users"."id" = "items"."owner_id"
where "items"."id" = $2;

-- ItemsRepository.namesOnPath (breadcrumb)
select "id",
  "name"
from "items"
where "id" in ($1);

-- ItemsRepository.tagFilterGroups
select "id",
  "dimension_id"
from "tags"
where "id" in ($1, $2);

-- ItemsRepository.listChildren, order normal, a department's view
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or ("items"."visibility" = $5 and "items"."dept_path" like $6))
order by (items.type <> 1), "items"."created_at" desc, "items"."id" desc
limit $7
offset $8;

-- ItemsRepository.listChildren, order nameAsc, a department's view
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or ("items"."visibility" = $5 and "items"."dept_path" like $6))
order by (items.type <> 1), lower(items.name) asc, "items"."id" asc
limit $7
offset $8;

-- ItemsRepository.listChildren, order nameDesc, a department's view
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or ("items"."visibility" = $5 and "items"."dept_path" like $6))
order by (items.type <> 1), lower(items.name) desc, "items"."id" desc
limit $7
offset $8;

-- ItemsRepository.listChildren, order uploadedAsc, a department's view
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or ("items"."visibility" = $5 and "items"."dept_path" like $6))
order by (items.type <> 1), items.created_at asc, "items"."id" asc
limit $7
offset $8;

-- ItemsRepository.listChildren, order uploadedDesc, a department's view
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or ("items"."visibility" = $5 and "items"."dept_path" like $6))
order by (items.type <> 1), items.created_at desc, "items"."id" desc
limit $7
offset $8;

-- ItemsRepository.listChildren, order modifiedAsc, a department's view
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or ("items"."visibility" = $5 and "items"."dept_path" like $6))
order by (items.type <> 1), items.updated_at asc, "items"."id" asc
limit $7
offset $8;

-- ItemsRepository.listChildren, order modifiedDesc, a department's view
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or ("items"."visibility" = $5 and "items"."dept_path" like $6))
order by (items.type <> 1), items.updated_at desc, "items"."id" desc
limit $7
offset $8;

-- ItemsRepository.listChildren, order sizeAsc, a department's view
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or ("items"."visibility" = $5 and "items"."dept_path" like $6))
order by (items.type <> 1), items.total_size asc, "items"."id" asc
limit $7
offset $8;

-- ItemsRepository.listChildren, order sizeDesc, a department's view
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or ("items"."visibility" = $5 and "items"."dept_path" like $6))
order by (items.type <> 1), items.total_size desc, "items"."id" desc
limit $7
offset $8;

-- ItemsRepository.listChildren, order typeAsc, a department's view
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or ("items"."visibility" = $5 and "items"."dept_path" like $6))
order by (items.type <> 1), items.file_formats asc, lower(items.name) asc, "items"."id" asc
limit $7
offset $8;

-- ItemsRepository.listChildren, order typeDesc, a department's view
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or ("items"."visibility" = $5 and "items"."dept_path" like $6))
order by (items.type <> 1), items.file_formats desc, lower(items.name) desc, "items"."id" desc
limit $7
offset $8;

-- ItemsRepository.listChildren, order normal, a view of everything
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or "items"."visibility" = $5)
order by (items.type <> 1), "items"."created_at" desc, "items"."id" desc
limit $6
offset $7;

-- ItemsRepository.listChildren, order normal, a view of own files only
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
  and "items"."parent_id" = $3
  and "items"."owner_id" = $4
order by (items.type <> 1), "items"."created_at" desc, "items"."id" desc
limit $5
offset $6;

-- ItemsRepository.listChildren, top level
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
  and "items"."parent_id" is null
  and ("items"."owner_id" = $3 or ("items"."visibility" = $4 and "items"."dept_path" like $5))
order by (items.type <> 1), "items"."created_at" desc, "items"."id" desc
limit $6
offset $7;

-- ItemsRepository.listChildren, dates, validity and two tag groups
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or ("items"."visibility" = $5 and "items"."dept_path" like $6))
  and "items"."created_at" >= $7
  and "items"."created_at" <= $8
  and "items"."expire_end_date" >= $9
  and "items"."expire_end_date" <= $10
  and ("items"."type" = $11 or (("items"."expire_end_date" is null or "items"."expire_end_date" >= $12) and ("items"."expire_start_date" is null or "items"."expire_start_date" <= $13)))
  and exists (
    select 1 as "one"
    from "item_tags"
    where "item_tags"."item_id" = "items"."id"
      and "item_tags"."tag_id" in ($14, $15))
  and exists (
    select 1 as "one"
    from "item_tags"
    where "item_tags"."item_id" = "items"."id"
      and "item_tags"."tag_id" in ($16))
order by (items.type <> 1), "items"."created_at" desc, "items"."id" desc
limit $17
offset $18;

-- ItemsRepository.listChildren, a colour (choosing probe or walk) [1/3]
select count(*) as "n"
from (
  select 1 as "one"
  from "items"
  where "parent_id" = $1
    and "state" = $2
  limit $3) as "children";

-- ItemsRepository.listChildren, a colour (choosing probe or walk) [2/3]
select count(*) as "n"
from (
  select 1 as "one"
  from "item_colour_families"
  where "family" = 1
    and "share" >= 150
  limit $1) as "entries";

-- ItemsRepository.listChildren, a colour (choosing probe or walk) [3/3]
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or ("items"."visibility" = $5 and "items"."dept_path" like $6))
order by x.created_at desc, x.item_id desc
limit $7
offset $8;

-- ItemsRepository.listChildren, a colour, probe
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or ("items"."visibility" = $5 and "items"."dept_path" like $6))
  and exists (
    select 1 as "one"
    from "item_colour_families" as "icf"
    where "icf"."item_id" = "items"."id"
      and "icf"."family" = 1
      AND "icf"."share" >= 150)
order by (items.type <> 1), "items"."created_at" desc, "items"."id" desc
limit $7
offset $8;

-- ItemsRepository.listChildren, a colour, walk
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
  and "items"."parent_id" = $3
  and ("items"."owner_id" = $4 or ("items"."visibility" = $5 and "items"."dept_path" like $6))
order by x.created_at desc, x.item_id desc
limit $7
offset $8;
