import { randomBytes } from 'node:crypto';
import type { FunctionCode } from '@dam/contract';
import { endpoints } from '@dam/contract';
import type { DatabaseHandle } from '../src/db/database';
import { hashPassword } from '../src/lib/password';
import { AccountsRepository } from '../src/modules/accounts/repository';
import { call } from './call';
import { ADMIN, signIn, type TestApp } from './harness';

/**
 * Data for one test, made the way the application makes it (the HTTP API, or the accounts
 * repository where the API would need an administrator's session first). Every name is unique,
 * so tests sharing one app never see each other's data by name and each can run alone.
 */

let uniqueCounter = 0;

/** `prefix` with a suffix no other call returns (within one test process). */
export function uniqueName(prefix = 'x'): string {
  uniqueCounter += 1;
  return `${prefix}-${uniqueCounter}${randomBytes(2).toString('hex')}`;
}

/** An 11-digit mobile number no other test uses. */
export function uniqueMobile(): string {
  uniqueCounter += 1;
  return `139${String(uniqueCounter % 10_000).padStart(4, '0')}${String(randomBytes(2).readUInt16BE(0) % 10_000).padStart(4, '0')}`;
}

type Scope = 'none' | 'dept' | 'all';
export interface UserOptions {
  password?: string;
  email?: string;
  mobile?: string;
  deptId?: number | null;
  functionCodes?: FunctionCode[];
  scopes?: Partial<Record<'view' | 'upload' | 'download' | 'share', Scope>>;
  mustChangePassword?: boolean;
}
export interface GivenUser {
  id: number;
  email: string;
  password: string;
  roleId: number | null;
}

/**
 * Makes an account for a test: optionally in department `deptId`, and with a role of its own
 * carrying the given function codes and file scopes.
 */
export async function givenUser(database: DatabaseHandle, options: UserOptions = {}): Promise<GivenUser> {
  const repo = new AccountsRepository(database.db);
  uniqueCounter += 1;
  const email = options.email ?? `user${uniqueCounter}-${randomBytes(3).toString('hex')}@example.com`;
  const password = options.password ?? 'Passw0rd!';
  let roleId: number | null = null;
  if (options.functionCodes || options.scopes) {
    roleId = await repo.roles.createRole({
      name: uniqueName('role'),
      scopes: { view: 'none', upload: 'none', download: 'none', share: 'none', ...options.scopes },
      functionCodes: options.functionCodes ?? [],
    });
  }
  const id = await repo.users.createAccount({
    name: `Test User ${uniqueCounter}`,
    email,
    mobile: options.mobile ?? null,
    username: null,
    deptId: options.deptId ?? null,
    passwordHash: await hashPassword(password),
    mustChangePassword: options.mustChangePassword ?? false,
    roleIds: roleId ? [roleId] : [],
  });
  return { id, email, password, roleId };
}

/** `givenUser`, signed in: its session token comes along. */
export async function givenSignedInUser(
  t: TestApp,
  options: UserOptions = {},
): Promise<GivenUser & { token: string }> {
  const user = await givenUser(t.database, options);
  return { ...user, token: await signIn(t.app, user.email, user.password) };
}

/** Every file permission on everything, no function code. */
export const EVERY_SCOPE = { view: 'all', upload: 'all', download: 'all', share: 'all' } as const;

/** The first administrator's session. */
export const signInAdmin = (t: TestApp): Promise<string> => signIn(t.app, ADMIN.email, ADMIN.password);

/** The id of the root department (the organisation itself). */
export async function rootDepartmentId(t: TestApp): Promise<number> {
  const root = await t.database.db
    .selectFrom('departments')
    .select('id')
    .where('parent_id', 'is', null)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return root.id;
}

/** A department under `parentId` (the root by default), made by `token` (the administrator by default). */
export async function givenDepartment(
  t: TestApp,
  options: { name?: string; parentId?: number; token?: string } = {},
): Promise<{ id: number; name: string }> {
  const name = options.name ?? uniqueName('Dept');
  const token = options.token ?? (await signInAdmin(t));
  const parentId = options.parentId ?? (await rootDepartmentId(t));
  const created = await call(t.app, endpoints.createDepartment, { token, body: { name, parentId } });
  return { id: created.id, name };
}

/** Creates a folder at the top level (or in `parentId`) and returns its id. */
export async function createFolder(
  t: TestApp,
  token: string,
  folderName: string,
  parentId?: number,
): Promise<number> {
  return (await givenFolder(t, token, { name: folderName, ...(parentId === undefined ? {} : { parentId }) }))
    .id;
}

/** A folder of `token`'s at the top level (or in `parentId`), with a unique name unless one is given. */
export async function givenFolder(
  t: TestApp,
  token: string,
  options: { name?: string; parentId?: number; visibility?: 'shared' | 'private' } = {},
): Promise<{ id: number; name: string }> {
  const name = options.name ?? uniqueName('Folder');
  const created = await call(t.app, endpoints.createFolder, {
    token,
    body: {
      folderName: name,
      ...(options.parentId === undefined ? {} : { parentId: options.parentId }),
      ...(options.visibility === undefined ? {} : { visibility: options.visibility }),
    },
  });
  return { id: created.folderId, name };
}

export interface FileToUpload {
  fileName: string;
  bytes: Buffer;
  path?: string;
  tagIdList?: number[];
  /** The article number of the upload entry (the dialog fills it from the name). */
  artNum?: string;
  /** Add it as a new version of that file (issue 17). */
  versionOfItemId?: number;
  /** A new version kept behind the file's current one (issue 39 item 9). */
  keepCurrent?: boolean;
}
export type UploadTarget = { targetFolderId?: number | 'all'; path?: string; tagIdList?: number[] };

/**
 * Uploads files through the API as the browser does (create the batch, multipart start, sign,
 * PUT each part, report it, callback) and returns the upload record ids.
 */
export async function uploadFiles(
  t: TestApp,
  token: string,
  files: FileToUpload[],
  target: UploadTarget = { path: '/' },
  /** Runs once the batch exists, before any bytes are sent (e.g. to ask for its mail notice). */
  beforeParts?: (batchNum: string) => Promise<unknown>,
): Promise<number[]> {
  const records = await call(t.app, endpoints.createUploads, {
    token,
    body: {
      ...target,
      uploadDetailDTOS: files.map((f) => ({
        fileName: f.fileName,
        fileSize: f.bytes.length,
        path: f.path ?? '',
        ...(f.tagIdList ? { tagIdList: f.tagIdList } : {}),
        ...(f.artNum ? { artNum: f.artNum } : {}),
        ...(f.versionOfItemId ? { versionOfItemId: f.versionOfItemId } : {}),
        ...(f.keepCurrent ? { keepCurrent: true } : {}),
      })),
    },
  });
  if (beforeParts && records[0]) await beforeParts(records[0].batchNum);
  for (const [index, record] of records.entries()) {
    const bytes = (files[index] as FileToUpload).bytes;
    const { partSize, partCount } = await call(t.app, endpoints.startMultipart, {
      token,
      body: { id: record.id },
    });
    const numbers = Array.from({ length: partCount }, (_, i) => i + 1);
    const signed = await call(t.app, endpoints.signParts, {
      token,
      body: { id: record.id, partNumbers: numbers },
    });
    for (const part of signed.parts) {
      const chunk = bytes.subarray((part.partNumber - 1) * partSize, part.partNumber * partSize);
      let etag: string;
      if (part.url.startsWith('/')) {
        const response = await t.app.inject({
          method: 'PUT',
          url: part.url,
          payload: chunk,
          headers: { 'content-type': 'application/octet-stream' },
        });
        etag = String(response.headers.etag);
      } else {
        etag = String((await fetch(part.url, { method: 'PUT', body: chunk })).headers.get('etag'));
      }
      await call(t.app, endpoints.partDone, {
        token,
        body: { id: record.id, partNumber: part.partNumber, etag, size: chunk.length },
      });
    }
    await call(t.app, endpoints.finishUpload, {
      token,
      query: { id: record.id, status: 2, uploadSchedule: 100 },
    });
  }
  return records.map((r) => r.id);
}

/** The item a finished upload became. */
export async function itemOfUpload(t: Pick<TestApp, 'database'>, uploadId: number): Promise<number> {
  const row = await t.database.db
    .selectFrom('uploads')
    .select('item_id')
    .where('id', '=', uploadId)
    .executeTakeFirstOrThrow();
  if (row.item_id === null) throw new Error(`upload ${uploadId} has no item`);
  return row.item_id;
}

/** Uploads files and returns the items they became, in the order given. */
export async function givenFiles(
  t: TestApp,
  token: string,
  files: FileToUpload[],
  target: UploadTarget = { path: '/' },
): Promise<number[]> {
  const uploads = await uploadFiles(t, token, files, target);
  return Promise.all(uploads.map((id) => itemOfUpload(t, id)));
}

/**
 * One uploaded file of `token`'s (a unique `.txt` name unless one is given), at the top level or in
 * `folderId`; returns its item id and its name as listed (without the extension).
 */
export async function givenFile(
  t: TestApp,
  token: string,
  options: { fileName?: string; bytes?: Buffer; folderId?: number; path?: string; tagIdList?: number[] } = {},
): Promise<{ id: number; name: string; bytes: Buffer }> {
  const fileName = options.fileName ?? `${uniqueName('FILE')}.txt`;
  const bytes = options.bytes ?? Buffer.from(`bytes of ${fileName}`);
  const [id] = await givenFiles(
    t,
    token,
    [
      {
        fileName,
        bytes,
        ...(options.path === undefined ? {} : { path: options.path }),
        ...(options.tagIdList ? { tagIdList: options.tagIdList } : {}),
      },
    ],
    options.folderId === undefined ? { path: '/' } : { targetFolderId: options.folderId },
  );
  return { id: id as number, name: fileName.replace(/\.[^.]*$/, ''), bytes };
}

/**
 * One file of `token`'s at the top level whose media job (thumbnail, rendition, pages) has run;
 * needs an app made with `{ jobs: true }`. Returns its item and its upload record.
 */
export async function givenProcessedFile(
  t: TestApp,
  token: string,
  file: { fileName: string; bytes: Buffer },
): Promise<{ itemId: number; upload: { id: number; storage_key: string } }> {
  if (!t.jobs) throw new Error('givenProcessedFile needs createTestApp(…, { jobs: true })');
  const [itemId] = await givenFiles(t, token, [file]);
  const upload = await t.database.db
    .selectFrom('uploads')
    .select(['id', 'storage_key'])
    .where('item_id', '=', itemId as number)
    .executeTakeFirstOrThrow();
  await t.jobs.mediaDone(upload.id);
  return { itemId: itemId as number, upload };
}

export interface GivenShare {
  id: number;
  code: string;
  url: string;
  password: string | null;
  needPassword: boolean;
  validity: string;
  createdAt: string;
  expiresAt: string | null;
}

/** A share link of `token`'s for `itemIds`: public and without end unless told otherwise. */
export async function givenShare(
  t: TestApp,
  token: string,
  itemIds: number[],
  options: { needPassword?: boolean; expireTime?: string | number } = {},
): Promise<GivenShare> {
  return call(t.app, endpoints.createShare, {
    token,
    body: {
      needPassword: options.needPassword ? 1 : 0,
      expireTime: options.expireTime ?? 'none',
      folderIds: itemIds,
    },
  });
}

/** A public share link opened by a visitor: the link and the visitor's token. */
export async function givenOpenedShare(
  t: TestApp,
  token: string,
  itemIds: number[],
): Promise<GivenShare & { shareToken: string }> {
  const link = await givenShare(t, token, itemIds);
  const opened = await call(t.app, endpoints.visitShare, { params: { code: link.code } });
  return { ...link, shareToken: opened.shareToken as string };
}

export interface GivenDimension {
  id: number;
  name: string;
  /** Tag ids by tag name. */
  tags: Record<string, number>;
}

/**
 * A tag dimension with its tags (unique names unless given), made by a tag manager (`token`,
 * the administrator by default). Child dimensions name their parent and each tag's superior tag.
 */
export async function givenDimension(
  t: TestApp,
  options: {
    name?: string;
    tags?: Array<string | { tagName: string; parentTagId?: number }>;
    required?: boolean;
    parentDimensionId?: number;
    token?: string;
  } = {},
): Promise<GivenDimension> {
  const token = options.token ?? (await signInAdmin(t));
  const name = options.name ?? uniqueName('Dim');
  const tags = (options.tags ?? [uniqueName('Tag'), uniqueName('Tag')]).map((tag) =>
    typeof tag === 'string' ? { tagName: tag } : tag,
  );
  const result = await call(t.app, endpoints.saveTagDimension, {
    token,
    body: {
      dimensionName: name,
      ...(options.required === undefined ? {} : { required: options.required }),
      ...(options.parentDimensionId === undefined ? {} : { parentDimensionId: options.parentDimensionId }),
      tagDTOList: tags,
    },
  });
  return {
    id: result.id,
    name: result.dimensionName,
    tags: Object.fromEntries(result.tagDTOList.map((tag) => [tag.tagName, tag.id])),
  };
}

/** One tag (in a dimension of its own unless `dimensionId`'s tags are given with `dimension`). */
export async function givenTag(
  t: TestApp,
  options: { name?: string; token?: string } = {},
): Promise<{ id: number; name: string; dimensionId: number }> {
  const name = options.name ?? uniqueName('Tag');
  const dimension = await givenDimension(t, {
    tags: [name],
    ...(options.token ? { token: options.token } : {}),
  });
  return { id: dimension.tags[name] as number, name, dimensionId: dimension.id };
}
