import { endpoints, type LogEntry, OperationCode } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call, resultOf } from '../../../test/call';
import {
  givenDepartment,
  givenFile,
  givenFolder,
  givenSignedInUser,
  signInAdmin,
  uniqueName,
} from '../../../test/factories';
import { createTestApp, post, type TestApp } from '../../../test/harness';
import { readZip } from '../../../test/zip';

/** Files seen within one's own department only (a brand's usual role). */
const DEPT_SCOPES = { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' } as const;
/** Sees and downloads the department's files, may not share them. */
const NO_SHARE = { ...DEPT_SCOPES, share: 'none' } as const;
/** Sees the department's files, may not download them. */
const NO_DOWNLOAD = { ...DEPT_SCOPES, download: 'none' } as const;

/**
 * Sharing and downloading a collection (issue 43 item 1). A collection's link is live: a visitor sees
 * the collection's items of the moment that its sharer may share then, never a sibling department's;
 * it dies with the collection or the sharer's membership. A download takes what the caller sees,
 * with their own download permission.
 */
describe('collections: share links and downloads', { timeout: 60_000 }, () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    admin = await signInAdmin(t);
  });
  afterAll(() => t.close());

  /** Two sibling departments; the owner's file and folder (with a file) and the editor's file in one collection. */
  async function givenCampaign() {
    const [deptA, deptB] = [await givenDepartment(t), await givenDepartment(t)];
    const owner = await givenSignedInUser(t, { deptId: deptA.id, scopes: DEPT_SCOPES });
    const editor = await givenSignedInUser(t, { deptId: deptB.id, scopes: DEPT_SCOPES });
    const stranger = await givenSignedInUser(t, { deptId: deptA.id, scopes: DEPT_SCOPES });
    const fileA = await givenFile(t, owner.token, { fileName: `${uniqueName('LOOK-A')}.txt` });
    const folderA = await givenFolder(t, owner.token);
    const inner = await givenFile(t, owner.token, {
      fileName: `${uniqueName('INNER')}.txt`,
      folderId: folderA.id,
    });
    const fileB = await givenFile(t, editor.token, { fileName: `${uniqueName('LOOK-B')}.txt` });
    const collection = await call(t.app, endpoints.createCollection, {
      token: owner.token,
      body: { name: uniqueName('SS27 launch'), itemIds: [fileA.id, folderA.id] },
    });
    const id = collection.id;
    await call(t.app, endpoints.saveCollectionMembers, {
      token: owner.token,
      body: { id, members: [{ userId: editor.id, role: 'editor' }] },
    });
    await call(t.app, endpoints.addToCollection, { token: editor.token, body: { id, itemIds: [fileB.id] } });
    return { deptA, owner, editor, stranger, fileA, folderA, inner, fileB, collection };
  }

  const shareCollection = (token: string, id: number) =>
    attempt(t.app, endpoints.shareCollection, { token, body: { id, needPassword: 0, expireTime: 'none' } });
  const visit = (code: string, shareToken?: string) =>
    attempt(t.app, endpoints.visitShare, { params: { code }, ...(shareToken ? { shareToken } : {}) });
  const sharesOf = async (userId: number) =>
    (await t.database.db.selectFrom('shares').select('id').where('owner_id', '=', userId).execute()).length;
  /** What a visitor gets for a link nobody ever made. */
  const unknownLink = () => visit('AAAAAAAAAAAAAAAAAAAAAAAA');

  it('shows a visitor the collection by name with what its sharer may share now: live, never another department’s', async () => {
    const c = await givenCampaign();
    const id = c.collection.id;
    const shared = await shareCollection(c.owner.token, id);
    expect(shared.status).toBe(200);
    const link = shared.result!;

    const opened = await visit(link.code);
    expect(opened.status).toBe(200);
    const first = opened.result!;
    expect(first.collectionName).toBe(c.collection.name);
    expect(first.items?.map((item) => item.id)).toEqual([c.fileA.id, c.folderA.id]);
    // The editor's file (a sibling department the owner may not see) is neither listed nor reachable.
    expect(JSON.stringify(first)).not.toContain(c.fileB.name);
    const shareToken = first.shareToken as string;
    const foreign = await attempt(t.app, endpoints.shareFile, {
      shareToken,
      body: { folderDataId: c.fileB.id },
    });
    expect(foreign.errorCode).toBe('SE_502');
    // Inside a shared folder of the collection, as with any link.
    const inside = await call(t.app, endpoints.shareFolder, {
      shareToken,
      body: { folderId: c.folderA.id, pageNo: 1, pageSize: 20 },
    });
    expect(inside.list.map((item) => item.id)).toEqual([c.inner.id]);

    // Live: what is added, moved, removed or recycled afterwards shows at the next visit.
    const later = await givenFile(t, c.owner.token, { fileName: `${uniqueName('LATER')}.txt` });
    await call(t.app, endpoints.addToCollection, { token: c.owner.token, body: { id, itemIds: [later.id] } });
    await call(t.app, endpoints.moveInCollection, {
      token: c.owner.token,
      body: { id, itemId: later.id, beforeItemId: c.fileA.id },
    });
    await call(t.app, endpoints.deleteItems, { token: c.owner.token, body: { idList: [c.fileA.id] } });
    const again = (await visit(link.code, shareToken)).result!;
    expect(again.items?.map((item) => item.id)).toEqual([later.id, c.folderA.id]);

    // "My shares" names the collection and counts its live references, as it counts a link's items;
    // the log has the link with the collection.
    const mine = await call(t.app, endpoints.myShares, { token: c.owner.token, query: {} });
    expect(mine.list.find((s) => s.id === link.id)).toMatchObject({
      collectionName: c.collection.name,
      itemCount: 3,
    });
    const logged = await call(t.app, endpoints.operationLog, {
      token: admin,
      body: { operatorCodes: [OperationCode.createShare], pageSize: 100 },
    });
    const entry = logged.list.find((e: LogEntry) => e.details.collectionId === id);
    expect(entry?.details).toMatchObject({ collectionName: c.collection.name, shareId: link.id });
    expect(JSON.stringify(entry)).toContain(c.fileA.name);
    expect(JSON.stringify(entry)).not.toContain(c.fileB.name);
  });

  it('lets only members share, with the share permission on what they see; a refusal makes no link', async () => {
    const c = await givenCampaign();
    const id = c.collection.id;
    // Not a member: the collection is unknown to them.
    const stranger = await shareCollection(c.stranger.token, id);
    expect([stranger.status, stranger.errorCode]).toEqual([404, 'SE_404']);
    expect(await sharesOf(c.stranger.id)).toBe(0);

    // A viewer who may not share the department's files: refused, as sharing them from a listing.
    const noShare = await givenSignedInUser(t, { deptId: c.deptA.id, scopes: NO_SHARE });
    await call(t.app, endpoints.saveCollectionMembers, {
      token: c.owner.token,
      body: {
        id,
        members: [
          { userId: c.editor.id, role: 'editor' },
          { userId: noShare.id, role: 'viewer' },
          { userId: c.stranger.id, role: 'viewer' },
        ],
      },
    });
    const refused = await shareCollection(noShare.token, id);
    expect([refused.status, refused.errorCode]).toEqual([403, 'SE_502']);
    expect(await sharesOf(noShare.id)).toBe(0);

    // A viewer who may: the link shows what that viewer may share (the owner's department's files).
    const viewerLink = (await shareCollection(c.stranger.token, id)).result!;
    const seen = (await visit(viewerLink.code)).result!;
    expect(seen.items?.map((item) => item.id)).toEqual([c.fileA.id, c.folderA.id]);
    // The editor's link shows only the editor's department's file.
    const editorLink = (await shareCollection(c.editor.token, id)).result!;
    expect((await visit(editorLink.code)).result!.items?.map((item) => item.id)).toEqual([c.fileB.id]);

    // Bad input changes nothing.
    const bad = await attempt(t.app, endpoints.shareCollection, {
      token: c.owner.token,
      body: { id, needPassword: 0, expireTime: '3d' } as never,
      lang: 'en',
    });
    expect([bad.status, bad.errorCode]).toEqual([400, 'SE_400']);
    expect(await sharesOf(c.owner.id)).toBe(0);
  });

  it('dies, as an unknown link, when the sharer is let go or the collection is deleted', async () => {
    const c = await givenCampaign();
    const id = c.collection.id;
    const unknown = await unknownLink();
    expect(unknown.errorCode).toBe('SESH_01');

    const editorLink = (await shareCollection(c.editor.token, id)).result!;
    const editorToken = (await visit(editorLink.code)).result!.shareToken as string;
    const ownerLink = (await shareCollection(c.owner.token, id)).result!;
    expect((await visit(ownerLink.code)).status).toBe(200);
    const latest = async () =>
      (
        await call(t.app, endpoints.latestShares, { token: admin, body: { pageNo: 1, pageSize: 200 } })
      ).list.map((share) => share.id);
    expect(await latest()).toContain(editorLink.id);

    // The owner lets the editor go: the editor's link and its visitors' tokens end at once.
    await call(t.app, endpoints.saveCollectionMembers, { token: c.owner.token, body: { id, members: [] } });
    const gone = await visit(editorLink.code);
    expect([gone.status, gone.errorCode, gone.errorDesc]).toEqual([
      unknown.status,
      unknown.errorCode,
      unknown.errorDesc,
    ]);
    const browse = await attempt(t.app, endpoints.shareFolder, {
      shareToken: editorToken,
      body: { pageNo: 1, pageSize: 20 },
    });
    expect(browse.errorCode).toBe('SESH_01');
    expect(await latest()).not.toContain(editorLink.id);
    expect((await visit(ownerLink.code)).status).toBe(200);

    // Deleting the collection takes its links with it.
    await call(t.app, endpoints.deleteCollection, { token: c.owner.token, body: { id } });
    const deleted = await visit(ownerLink.code);
    expect([deleted.status, deleted.errorCode, deleted.errorDesc]).toEqual([
      unknown.status,
      unknown.errorCode,
      unknown.errorDesc,
    ]);
  });

  describe('download', () => {
    const ticket = (token: string, body: Record<string, unknown>) =>
      post(t.app, '/ske-api/v1_0/collection/download-ticket', body, { token, lang: 'en' });
    const zipOf = async (token: string, body: Record<string, unknown>) => {
      const answer = await ticket(token, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const saved = await t.app.inject({
        method: 'GET',
        url: resultOf(endpoints.collectionDownloadTicket, answer.body).url,
      });
      expect(saved.statusCode).toBe(200);
      return readZip(saved.rawPayload);
    };

    it('downloads what the caller sees of the collection, folders with their files, by their own rights', async () => {
      const c = await givenCampaign();
      const id = c.collection.id;
      const forOwner = await zipOf(c.owner.token, { id });
      expect([...forOwner.keys()].sort()).toEqual(
        [`${c.fileA.name}.txt`, `${c.folderA.name}/${c.inner.name}.txt`].sort(),
      );
      expect(forOwner.get(`${c.fileA.name}.txt`)).toEqual(c.fileA.bytes);

      // The editor's download holds the editor's file only: a sibling department's are not theirs to see.
      // A single file goes as itself, not as a zip.
      const answer = await ticket(c.editor.token, { id, formats: ['all'] });
      const single = await t.app.inject({
        method: 'GET',
        url: resultOf(endpoints.collectionDownloadTicket, answer.body).url,
      });
      expect(single.rawPayload).toEqual(c.fileB.bytes);

      // A member who may see but not download: the files are listed as problems, nothing is sent.
      const looker = await givenSignedInUser(t, { deptId: c.deptA.id, scopes: NO_DOWNLOAD });
      await call(t.app, endpoints.saveCollectionMembers, {
        token: c.owner.token,
        body: { id, members: [{ userId: looker.id, role: 'viewer' }] },
      });
      const forLooker = await zipOf(looker.token, { id });
      expect([...forLooker.keys()]).toEqual(['_download-problems.txt']);
      expect(forLooker.get('_download-problems.txt')?.toString()).toContain(c.fileA.name);
      expect([...forLooker.keys()].join()).not.toContain(c.inner.name);
    });

    it('refuses strangers, a collection with nothing to download, and bad input', async () => {
      const c = await givenCampaign();
      const id = c.collection.id;
      const stranger = await ticket(c.stranger.token, { id });
      expect([stranger.status, stranger.body.errorCode]).toEqual([404, 'SE_404']);
      // Everything in it is another department's for this member.
      const other = await givenCampaign();
      const empty = await call(t.app, endpoints.createCollection, {
        token: other.editor.token,
        body: { name: uniqueName('empty') },
      });
      const nothing = await ticket(other.editor.token, { id: empty.id });
      expect([nothing.status, nothing.body.errorCode]).toEqual([404, 'SECO_03']);
      expect(nothing.body.errorDesc).toBe('There is nothing in this collection you may download');
      const badPreset = await ticket(c.owner.token, { id, presetId: 999_999 });
      expect(badPreset.body.errorCode).toBe('SEDL_01');
      const badScale = await ticket(c.owner.token, { id, equalScalingPx: 20_000 });
      expect([badScale.status, badScale.body.errorCode]).toEqual([400, 'SE_400']);
    });
  });
});
