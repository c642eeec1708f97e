import { ERROR_HTTP_STATUS, type ErrorCode, endpoints } from '@dam/contract';
import { type RawBuilder, sql } from 'kysely';
import { expect } from 'vitest';
import { AccountsRepository } from '../../src/modules/accounts/repository';
import { call, resultOf } from '../call';
import { createFolder, givenUser, uploadFiles } from '../factories';
import { ADMIN, createTestApp, post, signIn, type TestApp } from '../harness';

/**
 * The permission matrix (issue 9): for every route that takes the id of something owned by a
 * department, a caller from a sibling department (scope "self and below" over their own subtree)
 * is refused with the same answer as for an id that does not exist (SE_404; SESH_01 for share
 * links; SED_06, SED_04, SED_02 for departments, parent departments and users in administration),
 * and nothing in the database changes. A caller who can see the target but lacks the
 * permission for the action ("onlooker": view scope "all", the other scopes "dept") gets SE_502,
 * also changing nothing. Each row has a positive control: the same call by a member of the owning
 * department succeeds, so no row can pass because the request itself was broken.
 *
 * Departments:            root (1)
 *                            └── Parent
 *                                 ├── A  (sibling, onlooker)
 *                                 └── B  (bOwner, bPeer: own everything probed)
 *
 * Not in the matrix, because they name nothing owned by a department: the catalogues of tag
 * dimensions, SKUs and download presets (function code 4/8 decides, tested in their modules);
 * share-link visitor calls (authorised by the link; ids outside it answer SE_502 like unknown
 * ones, tested in shares.test.ts); media and part URLs (authorised by their signature); roles
 * (global, listed to every administrator: one beyond the caller is SE_502, see
 * accounts-confinement.test.ts).
 */

/** Ids of one set of things owned by department B (made by bOwner). */
export interface Target {
  folder: number;
  /** A file in `folder` with two formats (jpg, png) and so two upload records. */
  file: number;
  /** The png upload record of `file`. */
  record: number;
  channelTag: number;
  /** bOwner's share link of `file`. */
  share: number;
  /** bOwner's upload record not yet transferred (status waiting). */
  upload: number;
  /** A folder bOwner deleted: in bOwner's recycle bin. */
  recycled: number;
  /** A department below B, without members. */
  dept: number;
  /** A member of B without roles of their own. */
  member: number;
  /** The member's e-mail (edit-user sends the whole record). */
  memberEmail: string;
}

export type Who = 'sibling' | 'onlooker' | 'bOwner' | 'bPeer';

export interface Probe {
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
}

export interface Row {
  route: string;
  /** What the caller needs on the target (a reviewer's reading of the rule). */
  needs: string;
  /** The id the row probes: replaced by an unknown id for the "does not exist" comparison. */
  target: keyof Target;
  /** Builds the request; `own` is what `prepare` made for the caller. */
  request: (ids: Target, own: number | undefined) => Probe;
  /** The code for invisible and unknown ids alike (default SE_404). */
  hidden?: ErrorCode;
  /** What the onlooker (sees B's items, may not change, download or share them) gets, if asked. */
  onlooker?: string;
  /** Who the positive control is (default bPeer: a colleague in B, not the owner). */
  control?: Who;
  /**
   * The row's positive control uses up or changes the state of this part of the target (moves or
   * deletes the file, hides a format, advances an upload): the row gets a new one of its own.
   * Other rows share one target, which their controls leave usable (so rows run in any order).
   */
  fresh?: 'file' | 'upload' | 'recycled' | 'dept' | 'member';
  /** Runs as bOwner on the target before the probes (e.g. start a transfer). */
  setup?: (ids: Target) => Promise<void>;
  /** Makes something the caller owns, used by the request (e.g. a folder to move into the target). */
  prepare?: (who: Who) => Promise<number>;
}

export const UNKNOWN = 987_654_321;
export const api = (path: string) => `/ske-api/v1_0/${path}`;
export const GET = (url: string): Probe => ({ method: 'GET', url: api(url) });
export const POST = (url: string, body: unknown): Probe => ({ method: 'POST', url: api(url), body });
/** The security API (administration of departments and users). */
export const ADMIN_POST = (path: string, body: unknown): Probe => ({
  method: 'POST',
  url: `/security-api/${path}`,
  body,
});

/** What a row's caller needs on its target (`Row.needs`). */
export const EDIT = 'edit (owner, or upload scope over the item)';
export const VIEW = 'view';

export type MatrixWorld = Awaited<ReturnType<typeof createMatrixWorld>>;

/** The app of the matrix: the departments and callers above, a tag, and B's shared target. */
export async function createMatrixWorld() {
  const tokens = {} as Record<Who | 'admin', string>;
  let counter = 0;
  /** The department of each caller (B is the owning department). */
  const deptOf = {} as Record<Who, number>;
  let digestQuery: RawBuilder<unknown> | undefined;

  const t: TestApp = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' });
  const accounts = new AccountsRepository(t.database.db);
  const parent = await accounts.departments.createDepartment({ name: 'Parent', parentId: 1 });
  const a = await accounts.departments.createDepartment({ name: 'A', parentId: parent.id });
  const b = await accounts.departments.createDepartment({ name: 'B', parentId: parent.id });
  Object.assign(deptOf, { sibling: a.id, onlooker: a.id, bOwner: b.id, bPeer: b.id });
  const dept = { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' } as const;
  // Codes 2 (users and departments) and 4 (tags): administration and the tag export reach their
  // id checks. Administration reaches the caller's own department subtree (file scopes "dept").
  const users = {
    sibling: await givenUser(t.database, { deptId: a.id, scopes: dept, functionCodes: [2, 4] }),
    onlooker: await givenUser(t.database, {
      deptId: a.id,
      scopes: { ...dept, view: 'all' },
      functionCodes: [4],
    }),
    bOwner: await givenUser(t.database, { deptId: b.id, scopes: dept, functionCodes: [4] }),
    bPeer: await givenUser(t.database, { deptId: b.id, scopes: dept, functionCodes: [2, 4] }),
  };
  for (const [who, user] of Object.entries(users))
    tokens[who as Who] = await signIn(t.app, user.email, user.password);
  tokens.admin = await signIn(t.app, ADMIN.email, ADMIN.password);

  const dimension = await post(
    t.app,
    api('manage/update-tag'),
    { dimensionName: 'Matrix', tagDTOList: [{ tagName: 'Probe' }] },
    { token: tokens.admin },
  );
  expect(dimension.status, JSON.stringify(dimension.body)).toBe(200);
  const tagId = resultOf(endpoints.saveTagDimension, dimension.body).tagDTOList[0]?.id as number;
  const shared: Target = await freshTarget();

  /** A two-format file (jpg, png) with a tag and a channel tag in `folder`, and bOwner's share of it. */
  async function makeFile(folder: number): Promise<Pick<Target, 'file' | 'record' | 'channelTag' | 'share'>> {
    counter += 1;
    const owner = tokens.bOwner;
    const name = `B file ${counter}`;
    await uploadFiles(t, owner, [{ fileName: `${name}.jpg`, bytes: Buffer.from(`jpg ${counter}`) }], {
      targetFolderId: folder,
    });
    const [record] = await uploadFiles(
      t,
      owner,
      [{ fileName: `${name}.png`, bytes: Buffer.from(`png ${counter}`) }],
      { targetFolderId: folder },
    );
    const listing = await call(t.app, endpoints.folderListing, {
      token: owner,
      query: { folderDataId: folder, pageSize: 200 },
    });
    const file = listing.list.find((i) => i.name === name)?.id as number;
    expect(file, JSON.stringify(listing)).toBeGreaterThan(0);
    await call(t.app, endpoints.modifyItemTags, {
      token: owner,
      body: { folderDataId: file, tagIdList: [tagId] },
    });
    const channel = await call(t.app, endpoints.addChannelTag, {
      token: owner,
      body: { folderDataId: file, channelName: 'Shop' },
    });
    const share = await call(t.app, endpoints.createShare, {
      token: owner,
      body: { folderIds: [file], needPassword: 0, expireTime: 'none' },
    });
    return { file, record: record as number, channelTag: channel.id, share: share.id };
  }

  /** bOwner's upload record in `folder`, not yet transferred. */
  async function makeUpload(folder: number): Promise<number> {
    counter += 1;
    const [pending] = await call(t.app, endpoints.createUploads, {
      token: tokens.bOwner,
      body: {
        targetFolderId: folder,
        uploadDetailDTOS: [{ fileName: `pending ${counter}.jpg`, fileSize: 10, path: '' }],
      },
    });
    return pending?.id as number;
  }

  /** A folder in bOwner's recycle bin. */
  async function makeRecycled(): Promise<number> {
    counter += 1;
    const recycled = await createFolder(t, tokens.bOwner, `B bin ${counter}`);
    await call(t.app, endpoints.deleteItems, { token: tokens.bOwner, body: { folderIdList: [recycled] } });
    return recycled;
  }

  async function freshTarget(): Promise<Target> {
    counter += 1;
    const folder = await createFolder(t, tokens.bOwner, `B folder ${counter}`);
    return {
      folder,
      ...(await makeFile(folder)),
      upload: await makeUpload(folder),
      recycled: await makeRecycled(),
      dept: await makeDept(),
      ...(await makeMember()),
    };
  }

  async function makeDept(): Promise<number> {
    counter += 1;
    return (
      await accounts.departments.createDepartment({ name: `B below ${counter}`, parentId: deptOf.bOwner })
    ).id;
  }

  async function makeMember(): Promise<Pick<Target, 'member' | 'memberEmail'>> {
    const member = await givenUser(t.database, { deptId: deptOf.bOwner });
    return { member: member.id, memberEmail: member.email };
  }

  /** For a row whose positive control uses up its target: a new one of what it probes. */
  async function renewed(part: Row['fresh']): Promise<Partial<Target>> {
    if (part === 'file') return makeFile(shared.folder);
    if (part === 'upload') return { upload: await makeUpload(shared.folder) };
    if (part === 'recycled') return { recycled: await makeRecycled() };
    if (part === 'dept') return { dept: await makeDept() };
    if (part === 'member') return makeMember();
    return {};
  }

  /** A department below the caller's own, for moving under a target. */
  const ownDept = async (who: Who) => {
    counter += 1;
    return (
      await accounts.departments.createDepartment({ name: `${who} below ${counter}`, parentId: deptOf[who] })
    ).id;
  };

  /** A top-level folder of the caller's own, for moving into a target. */
  const ownFolder = async (who: Who) => {
    counter += 1;
    return createFolder(t, tokens[who], `${who} own ${counter}`);
  };

  async function send(who: Who, probe: Probe) {
    const response = await t.app.inject({
      method: probe.method,
      url: probe.url,
      headers: { token: tokens[who], lang: 'en' },
      ...(probe.body === undefined ? {} : { payload: probe.body as object }),
    });
    const json = String(response.headers['content-type'] ?? '').includes('application/json')
      ? (response.json() as { errorCode: string | null; errorDesc: string | null })
      : null;
    return {
      status: response.statusCode,
      errorCode: json?.errorCode ?? null,
      errorDesc: json?.errorDesc ?? null,
      text: response.body.slice(0, 300),
    };
  }

  /** Every table's content, hashed; sessions and the operation log (refusals are logged) left out. */
  async function snapshot(): Promise<Record<string, string>> {
    if (!digestQuery) {
      const tables = await sql<{ table_name: string }>`
        SELECT table_name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
        ORDER BY table_name`.execute(t.database.db);
      const names = tables.rows
        .map((r) => r.table_name)
        .filter(
          (name) =>
            !/^(sessions|operation_logs|kysely_migration.*)$|rate|limit|attempt|throttle|job/i.test(name),
        );
      digestQuery = sql.join(
        names.map(
          (name) => sql`SELECT ${name} AS name,
            (SELECT count(*)::text || ':' || md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), ''))
             FROM ${sql.table(name)} AS t) AS digest`,
        ),
        sql` UNION ALL `,
      );
    }
    const { rows } = await sql<{ name: string; digest: string }>`${digestQuery}`.execute(t.database.db);
    return Object.fromEntries(rows.map((r) => [r.name, r.digest]));
  }

  async function startTransfer(ids: Target): Promise<void> {
    await call(t.app, endpoints.startMultipart, { token: tokens.bOwner, body: { id: ids.upload } });
  }

  /** One row of the matrix: the sibling, the onlooker if asked, and the positive control. */
  async function probe(row: Row): Promise<void> {
    const ids = { ...shared, ...(await renewed(row.fresh)) };
    await row.setup?.(ids);
    const hidden = row.hidden ?? 'SE_404';
    const unknownIds = { ...ids, [row.target]: UNKNOWN };

    // The sibling: refused exactly as for an id that does not exist, and nothing changes.
    const ownOfSibling = await row.prepare?.('sibling');
    const before = await snapshot();
    const refused = await send('sibling', row.request(ids, ownOfSibling));
    expect(await snapshot(), `${row.route}: the refused call changed data`).toEqual(before);
    expect([refused.status, refused.errorCode], refused.text).toEqual([ERROR_HTTP_STATUS[hidden], hidden]);
    const unknown = await send('sibling', row.request(unknownIds, ownOfSibling));
    expect(unknown, 'an unknown id and a hidden one answer alike').toEqual(refused);

    // The onlooker sees the target: refused for want of the permission, and nothing changes.
    if (row.onlooker) {
      const ownOfOnlooker = await row.prepare?.('onlooker');
      const beforeOnlooker = await snapshot();
      const seen = await send('onlooker', row.request(ids, ownOfOnlooker));
      expect(await snapshot(), `${row.route}: the onlooker's refused call changed data`).toEqual(
        beforeOnlooker,
      );
      expect(seen.errorCode, seen.text).toBe(row.onlooker);
    }

    // Positive control: B's own member may.
    const control = row.control ?? 'bPeer';
    const allowed = await send(control, row.request(ids, await row.prepare?.(control)));
    expect(allowed.status, `${row.route} by ${control}: ${allowed.text}`).toBe(200);
  }

  return {
    t,
    tokens,
    deptOf,
    tagId,
    shared,
    get counter() {
      return counter;
    },
    set counter(value: number) {
      counter = value;
    },
    makeFile,
    makeUpload,
    makeRecycled,
    freshTarget,
    makeDept,
    makeMember,
    renewed,
    ownDept,
    ownFolder,
    send,
    snapshot,
    startTransfer,
    probe,
  };
}
