import { type LogEntry, OperationCode } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFolder } from '../../../test/factories';
import { get, post } from '../../../test/harness';
import { createLogsWorld, type LogsWorld } from '../../../test/scenarios/logs';

describe('operation log: file operations recorded by the server', () => {
  let w: LogsWorld;
  beforeAll(async () => {
    w = await createLogsWorld();
  });
  afterAll(() => w.t.close());

  describe('recorded by the server', () => {
    it('records one upload entry per finished file, not per part or repeated callback', async () => {
      const uploads = await w.entriesOf(OperationCode.upload);
      expect(uploads).toHaveLength(3);
      expect(uploads.map((e) => e.fileNames[0]).sort()).toEqual(['SHOE1.jpg', 'SHOE2.jpg', 'SHOE3.jpg']);
      const shoe1 = uploads.find((e) => e.fileNames[0] === 'SHOE1.jpg') as LogEntry;
      expect(shoe1).toMatchObject({
        operatorId: w.adminId,
        operatorName: w.adminName,
        operatorCode: 'FILE01',
        operationKey: 'upload',
        operationName: 'Upload',
        itemIds: [w.files.SHOE1],
        itemCount: 1,
        reported: false,
      });
      expect(shoe1.ip).toBeTruthy();
      // The browser repeats the callback (a retry after a lost answer): nothing more is logged.
      const record = await w.t.database.db
        .selectFrom('uploads')
        .select('id')
        .where('item_id', '=', w.files.SHOE1)
        .executeTakeFirstOrThrow();
      const again = await w.added(OperationCode.upload, () =>
        w.ok200(
          get(w.t.app, `/ske-api/v1_0/file-upload/callback?id=${record.id}&status=2&uploadSchedule=100`, {
            token: w.admin,
          }),
        ),
      );
      expect(again).toHaveLength(0);
    });

    it('records creating, moving, renaming and moving a folder', async () => {
      let target = 0;
      const created = await w.added(OperationCode.createFolder, async () => {
        target = await createFolder(w.t, w.admin, 'Target');
      });
      expect(created).toHaveLength(1);
      expect(created[0]).toMatchObject({ fileNames: ['Target'], itemIds: [target] });
      expect(created[0]?.details.targetPath).toBe('/');

      const moved = await w.added(OperationCode.move, () =>
        w.ok200(
          post(
            w.t.app,
            '/ske-api/v1_0/file/batch-move',
            { folderDataIdList: [w.files.SHOE3], targetFolderId: target },
            { token: w.admin },
          ),
        ),
      );
      expect(moved).toHaveLength(1);
      expect(moved[0]).toMatchObject({ fileNames: ['SHOE3'], itemIds: [w.files.SHOE3], newValue: '/Target' });
      expect(moved[0]?.details.changes).toEqual({ path: ['/', '/Target'] });
      expect(moved[0]?.content).toBe('to /Target');

      // A refused move (the same name is already there) logs nothing.
      await createFolder(w.t, w.admin, 'Twin', target);
      const twin = await createFolder(w.t, w.admin, 'Twin');
      const refused = await w.added(OperationCode.move, async () => {
        const answer = await post(
          w.t.app,
          '/ske-api/v1_0/file/batch-move',
          { folderDataIdList: [twin], targetFolderId: target },
          { token: w.admin },
        );
        expect(answer.body.errorCode).toBe('SEF_01');
      });
      expect(refused).toHaveLength(0);

      const renamed = await w.added(OperationCode.edit, () =>
        w.ok200(
          post(
            w.t.app,
            '/ske-api/v1_0/file/update-folder',
            { folderDataId: target, folderName: 'Archive' },
            { token: w.admin },
          ),
        ),
      );
      expect(renamed).toHaveLength(1);
      // The name it had when the operation began, and the new one.
      expect(renamed[0]).toMatchObject({ fileNames: ['Target'], newValue: 'Archive' });
      expect(renamed[0]?.details.changes).toEqual({ name: ['Target', 'Archive'] });

      const edited = await w.added(OperationCode.edit, () =>
        w.ok200(
          post(
            w.t.app,
            '/ske-api/v1_0/file/edit',
            { folderDataId: w.files.SHOE3, name: 'SHOE3-final', artNum: 'SHOE3' },
            { token: w.admin },
          ),
        ),
      );
      expect(edited).toHaveLength(1);
      expect(edited[0]?.fileNames).toEqual(['SHOE3']);
      expect(edited[0]?.details.changes).toEqual({ name: ['SHOE3', 'SHOE3-final'], artNum: [null, 'SHOE3'] });
      expect(edited[0]?.content).toBe('name: SHOE3 → SHOE3-final; article number: — → SHOE3');
    });

    it('records the recycle bin: delete, restore, delete permanently and clear', async () => {
      const doomed = await createFolder(w.t, w.admin, 'Doomed');
      const deleted = await w.added(OperationCode.delete, () =>
        w.ok200(
          post(w.t.app, '/ske-api/v1_0/file/batch-del', { folderIdList: [doomed] }, { token: w.admin }),
        ),
      );
      expect(deleted).toHaveLength(1);
      expect(deleted[0]).toMatchObject({ fileNames: ['Doomed'], itemIds: [doomed], operatorId: w.adminId });

      const restored = await w.added(OperationCode.restore, () =>
        w.ok200(get(w.t.app, `/ske-api/v1_0/recycle/batch-restore?ids=${doomed}`, { token: w.admin })),
      );
      expect(restored).toHaveLength(1);
      expect(restored[0]?.fileNames).toEqual(['Doomed']);

      await w.ok200(
        post(w.t.app, '/ske-api/v1_0/file/batch-del', { folderIdList: [doomed] }, { token: w.admin }),
      );
      const purged = await w.added(OperationCode.purge, () =>
        w.ok200(get(w.t.app, `/ske-api/v1_0/recycle/batch-del?ids=${doomed}`, { token: w.admin })),
      );
      expect(purged).toHaveLength(1);
      // The item is gone for good, but the entry keeps the name it had.
      expect(purged[0]).toMatchObject({ fileNames: ['Doomed'], itemIds: [doomed] });

      const a = await createFolder(w.t, w.admin, 'Old A');
      const b = await createFolder(w.t, w.admin, 'Old B');
      await w.ok200(
        post(w.t.app, '/ske-api/v1_0/file/batch-del', { folderIdList: [a, b] }, { token: w.admin }),
      );
      const cleared = await w.added(OperationCode.purge, () =>
        w.ok200(post(w.t.app, '/ske-api/v1_0/recycle/clear', undefined, { token: w.admin })),
      );
      expect(cleared).toHaveLength(1);
      expect(cleared[0]?.fileNames.sort()).toEqual(['Old A', 'Old B']);
      expect(cleared[0]?.details.emptied).toBe(true);
      expect(cleared[0]?.content).toBe('recycle bin emptied');
      // Emptying an empty bin deleted nothing and logs nothing.
      const nothing = await w.added(OperationCode.purge, () =>
        w.ok200(post(w.t.app, '/ske-api/v1_0/recycle/clear', undefined, { token: w.admin })),
      );
      expect(nothing).toHaveLength(0);
    });

    it('records favourites', async () => {
      const collected = await w.added(OperationCode.collect, () =>
        w.ok200(
          get(w.t.app, `/ske-api/v1_0/collect/file-collect?folderDataId=${w.files.SHOE1}`, {
            token: w.staff.token,
          }),
        ),
      );
      expect(collected).toHaveLength(1);
      expect(collected[0]).toMatchObject({
        operatorId: w.staff.id,
        operatorName: w.staff.name,
        fileNames: ['SHOE1'],
      });
      const cancelled = await w.added(OperationCode.cancelCollect, () =>
        w.ok200(
          get(w.t.app, `/ske-api/v1_0/collect/file-cancel-collect?folderDataId=${w.files.SHOE1}`, {
            token: w.staff.token,
          }),
        ),
      );
      expect(cancelled).toHaveLength(1);
      expect(cancelled[0]?.fileNames).toEqual(['SHOE1']);
    });

    it('records one entry per download request, signed in or by a download link', async () => {
      const direct = await w.added(OperationCode.download, async () => {
        const response = await w.t.app.inject({
          method: 'POST',
          url: '/ske-api/v1_0/file/batch-download',
          headers: { token: w.staff.token },
          payload: { folderDataIdList: [w.files.SHOE1, w.files.SHOE2] },
        });
        expect(response.statusCode).toBe(200);
      });
      expect(direct).toHaveLength(1);
      expect(direct[0]).toMatchObject({ operatorId: w.staff.id, itemCount: 2 });
      expect(direct[0]?.fileNames.sort()).toEqual(['SHOE1', 'SHOE2']);
      expect(direct[0]?.details.fileCount).toBe(2);

      let url = '';
      const ticketOnly = await w.added(OperationCode.download, async () => {
        const ticket = await w.ok200(
          post(
            w.t.app,
            '/ske-api/v1_0/file/download-ticket',
            { folderDataIdList: [w.files.SHOE1] },
            { token: w.staff.token },
          ),
        );
        url = (ticket.body as { result: { url: string } }).result.url;
      });
      // Asking for a link downloads nothing yet.
      expect(ticketOnly).toHaveLength(0);
      const viaLink = await w.added(OperationCode.download, async () => {
        const response = await w.t.app.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(200);
      });
      expect(viaLink).toHaveLength(1);
      expect(viaLink[0]).toMatchObject({ operatorId: w.staff.id, fileNames: ['SHOE1'] });

      const refused = await w.added(OperationCode.download, async () => {
        const response = await w.t.app.inject({
          method: 'POST',
          url: '/ske-api/v1_0/file/batch-download',
          headers: { token: w.auditor.token },
          payload: { folderDataIdList: [w.files.SHOE1] },
        });
        // The auditor cannot see the file: answered like an unknown id (docs/decisions.md, Errors).
        expect(response.statusCode).toBe(404);
      });
      expect(refused).toHaveLength(0);
    });

    it('records share links: made, opened and downloaded by a visitor, cancelled', async () => {
      let created = { id: 0, code: '' };
      const made = await w.added(OperationCode.createShare, async () => {
        const answer = await w.ok200(
          post(
            w.t.app,
            '/ske-api/v1_0/user/share/produce-random-code',
            { needPassword: 0, expireTime: '7d', folderIds: `${w.files.SHOE1},${w.files.SHOE2}` },
            { token: w.admin },
          ),
        );
        created = (answer.body as { result: typeof created }).result;
      });
      expect(made).toHaveLength(1);
      expect(made[0]).toMatchObject({ operatorId: w.adminId, itemIds: [w.files.SHOE1, w.files.SHOE2] });
      expect(made[0]?.details).toMatchObject({ shareId: created.id, needPassword: false, validity: '7d' });
      // The link's code is its secret: log readers never see it.
      expect(JSON.stringify(made[0])).not.toContain(created.code);
      expect(made[0]?.content).toBe(`link #${created.id}, public, valid 7 days`);

      let shareToken = '';
      const opened = await w.added(OperationCode.openShare, async () => {
        const visit = await w.ok200(get(w.t.app, `/ske-api/v1_0/user/share/random/${created.code}`));
        shareToken = (visit.body as { result: { shareToken: string } }).result.shareToken;
      });
      expect(opened).toHaveLength(1);
      expect(opened[0]).toMatchObject({ operatorId: null, operatorName: null, itemCount: 2 });
      expect(opened[0]?.details).toMatchObject({
        shareId: created.id,
        ownerId: w.adminId,
        ownerName: w.adminName,
      });
      // Coming back with the visitor token is the same visit.
      const again = await w.added(OperationCode.openShare, () =>
        w.ok200(
          get(w.t.app, `/ske-api/v1_0/user/share/random/${created.code}`, { 'share-token': shareToken }),
        ),
      );
      expect(again).toHaveLength(0);

      const downloaded = await w.added(OperationCode.shareDownload, async () => {
        const response = await w.t.app.inject({
          method: 'POST',
          url: '/ske-api/v1_0/user/share/download',
          headers: { 'share-token': shareToken },
          payload: { folderDataIdList: [w.files.SHOE1] },
        });
        expect(response.statusCode).toBe(200);
      });
      expect(downloaded).toHaveLength(1);
      expect(downloaded[0]).toMatchObject({ operatorId: null, fileNames: ['SHOE1'] });
      expect(downloaded[0]?.details).toMatchObject({ shareId: created.id, fileCount: 1 });

      const cancelled = await w.added(OperationCode.cancelShare, () =>
        w.ok200(get(w.t.app, `/ske-api/v1_0/user/share/cancel-share?id=${created.id}`, { token: w.admin })),
      );
      expect(cancelled).toHaveLength(1);
      expect(cancelled[0]).toMatchObject({ operatorId: w.adminId, itemIds: [w.files.SHOE1, w.files.SHOE2] });
      expect(cancelled[0]?.details.shareId).toBe(created.id);
    });
  });
});
