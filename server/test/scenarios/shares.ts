import { endpoints } from '@dam/contract';
import { call, resultOf } from '../call';
import { createFolder, type GivenShare, givenUser, itemOfUpload, uploadFiles } from '../factories';
import { makeJpeg, makePng } from '../fixtures';
import { ADMIN, createTestApp, get, post, signIn, type TestApp } from '../harness';

/** The app of the share-link tests: a sharer's folders and files, other people, and the calls of the share API. */

/** A link as the sharer's call returns it. */
export type Created = GivenShare;
export interface SharedItem {
  id: number;
  type: number;
  name: string;
  path: string;
  parentId: number | null;
  compactUrl: string | null;
  authList: string[];
}
export interface Visit {
  needPassword: boolean;
  ownerName: string;
  expiresAt: string | null;
  shareToken: string | null;
  tokenExpiresAt: string | null;
  items: SharedItem[] | null;
}
export interface FolderPage {
  folder: SharedItem | null;
  breadcrumb: Array<{ id: number; name: string }>;
  list: SharedItem[];
  hasMore: boolean;
}

export const HOUR = 3600_000;
export const RATE_LIMIT = 5;

export type SharesWorld = Awaited<ReturnType<typeof createSharesWorld>>;

export async function createSharesWorld() {
  const ids = {} as Record<
    'Campaign' | 'Secret' | 'Details' | 'Brand' | 'SHOE1' | 'SHOE2' | 'notes' | 'plan' | 'LOGO',
    number
  >;
  const bytes: Record<string, Buffer> = {};
  const t: TestApp = await createTestApp({ LOGIN_RATE_LIMIT: String(RATE_LIMIT), SESSION_IDLE_HOURS: '720' });
  const everything = { view: 'all', upload: 'all', download: 'all', share: 'all' } as const;
  const s = await givenUser(t.database, { scopes: everything });
  const sharer = { id: s.id, roleId: s.roleId, token: await signIn(t.app, s.email, s.password) };
  const n = await givenUser(t.database, { scopes: { ...everything, share: 'none' } });
  const noShare = await signIn(t.app, n.email, n.password);
  const va = await givenUser(t.database, { scopes: { view: 'all' } });
  const viewerAll = await signIn(t.app, va.email, va.password);
  const vn = await givenUser(t.database, { scopes: {} });
  const viewerNone = await signIn(t.app, vn.email, vn.password);
  const admin = await signIn(t.app, ADMIN.email, ADMIN.password);

  bytes.jpg = await makeJpeg(300, 200);
  bytes.png = await makePng(120, 80);
  bytes.txt = Buffer.from('care instructions');
  bytes.secret = Buffer.from('not for visitors');
  ids.Campaign = await createFolder(t, sharer.token, 'Campaign');
  ids.Secret = await createFolder(t, sharer.token, 'Secret');
  const campaign = await uploadFiles(
    t,
    sharer.token,
    [
      { fileName: 'SHOE1.jpg', bytes: bytes.jpg },
      { fileName: 'notes.txt', bytes: bytes.txt },
      { fileName: 'SHOE2.png', bytes: bytes.png, path: 'Details' },
    ],
    { targetFolderId: ids.Campaign },
  );
  const secret = await uploadFiles(t, sharer.token, [{ fileName: 'plan.txt', bytes: bytes.secret }], {
    targetFolderId: ids.Secret,
  });
  // Someone else's folder the sharer may see and share (their download permission matters there).
  ids.Brand = await createFolder(t, admin, 'Brand');
  const brand = await uploadFiles(t, admin, [{ fileName: 'LOGO.png', bytes: bytes.png }], {
    targetFolderId: ids.Brand,
  });
  const itemOf = (uploadId: number) => itemOfUpload(t, uploadId);
  ids.SHOE1 = await itemOf(campaign[0] as number);
  ids.notes = await itemOf(campaign[1] as number);
  ids.SHOE2 = await itemOf(campaign[2] as number);
  ids.Details = (
    await t.database.db
      .selectFrom('items')
      .select('parent_id')
      .where('id', '=', ids.SHOE2)
      .executeTakeFirstOrThrow()
  ).parent_id as number;
  ids.plan = await itemOf(secret[0] as number);
  ids.LOGO = await itemOf(brand[0] as number);
  // A thumbnail, as the media pipeline would have made it.
  await t.database.db
    .updateTable('items')
    .set({ cover_key: 'thumbs/shoe1.jpg' })
    .where('id', '=', ids.SHOE1)
    .execute();

  const api = (path: string) => `/ske-api/v1_0/${path}`;
  const share = async (body: Record<string, unknown>, token = sharer.token) => {
    const response = await post(t.app, api('user/share/produce-random-code'), body, { token, lang: 'en' });
    return { ...response, created: resultOf(endpoints.createShare, response.body) };
  };
  const visit = async (code: string, shareToken?: string) => {
    const response = await get(t.app, api(`user/share/random/${code}`), {
      lang: 'en',
      ...(shareToken ? { 'share-token': shareToken } : {}),
    });
    return { ...response, visit: resultOf(endpoints.visitShare, response.body) };
  };
  const unlock = async (code: string, password: string) => {
    const response = await post(t.app, api(`user/share/random/${code}`), { password }, { lang: 'en' });
    return { ...response, visit: resultOf(endpoints.unlockShare, response.body) };
  };
  const browse = async (shareToken: string | null, body: Record<string, unknown>) => {
    const response = await post(
      t.app,
      api('user/share/folder'),
      body,
      shareToken ? { 'share-token': shareToken, lang: 'en' } : { lang: 'en' },
    );
    return { ...response, page: resultOf(endpoints.shareFolder, response.body) };
  };
  const download = (shareToken: string, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: api('user/share/download'),
      payload: body,
      headers: { 'share-token': shareToken, lang: 'en' },
    });
  const mine = async (token = sharer.token) =>
    (await call(t.app, endpoints.myShares, { token, query: { pageSize: 200 } })).list;
  const shareCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('shares')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const counts = (id: number) =>
    t.database.db
      .selectFrom('items')
      .select(['download_count', 'share_download_count'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  /** A public link opened by a visitor: the code and a visitor token. */
  const openPublic = async (folderIds: number[]) => {
    const { created } = await share({ needPassword: 0, expireTime: 'none', folderIds });
    const { visit: opened } = await visit(created.code);
    return { code: created.code, id: created.id, token: opened.shareToken as string, items: opened.items };
  };

  return {
    t,
    sharer,
    noShare,
    viewerAll,
    viewerNone,
    admin,
    ids,
    bytes,
    api,
    share,
    visit,
    unlock,
    browse,
    download,
    mine,
    shareCount,
    counts,
    openPublic,
  };
}
