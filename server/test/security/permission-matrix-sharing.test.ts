import { randomBytes } from 'node:crypto';
import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { call } from '../call';
import {
  createMatrixWorld,
  EDIT,
  GET,
  type MatrixWorld,
  POST,
  type Row,
  VIEW,
} from '../scenarios/permission-matrix';

/**
 * The permission matrix over tags and channel tags, share links, downloads, the operation log the
 * browser reports and uploads (a record is its uploader's alone).
 * The matrix itself, its callers and what each row checks: server/test/scenarios/permission-matrix.ts.
 */
describe('permission matrix: a caller from a sibling department is refused and nothing changes', () => {
  let w: MatrixWorld;
  beforeAll(async () => {
    w = await createMatrixWorld();
  });
  afterAll(() => w?.t.close());

  const rows: Row[] = [
    // Tags and channel tags
    {
      route: 'GET selector/tags (folderDataId)',
      needs: VIEW,
      target: 'file',
      request: (i) => ({ method: 'GET', url: `/ske-api/selector/tags?folderDataId=${i.file}` }),
    },
    {
      route: 'POST file/modify-tag',
      needs: EDIT,
      target: 'file',
      onlooker: 'SE_502',
      request: (i) => POST('file/modify-tag', { folderDataId: i.file, tagIdList: [] }),
    },
    {
      route: 'POST file/add-channel-tag',
      needs: EDIT,
      target: 'file',
      onlooker: 'SE_502',
      request: (i) => POST('file/add-channel-tag', { folderDataId: i.file, channelName: 'Probe' }),
    },
    {
      route: 'GET file/channel-tag',
      needs: VIEW,
      target: 'file',
      request: (i) => GET(`file/channel-tag?folderDataId=${i.file}`),
    },
    {
      route: 'GET file/delete-channel-tag',
      needs: EDIT,
      target: 'channelTag',
      onlooker: 'SE_502',
      request: (i) => GET(`file/delete-channel-tag?id=${i.channelTag}`),
    },
    {
      route: 'POST manage/tag-model-export',
      needs: 'view, and function code 4',
      target: 'folder',
      request: (i) => POST('manage/tag-model-export', { folderIdList: [i.folder] }),
    },
    // Share links
    {
      route: 'POST user/share/produce-random-code',
      needs: 'share',
      target: 'file',
      onlooker: 'SE_502',
      request: (i) =>
        POST('user/share/produce-random-code', { folderIds: [i.file], needPassword: 0, expireTime: '1d' }),
    },
    {
      route: 'GET user/share/cancel-share (id)',
      needs: 'own the link',
      target: 'share',
      hidden: 'SESH_01',
      onlooker: 'SESH_01',
      control: 'bOwner',
      request: (i) => GET(`user/share/cancel-share?id=${i.share}`),
    },
    // Downloads
    {
      route: 'POST file/batch-download (item)',
      needs: 'download',
      target: 'file',
      onlooker: 'SE_502',
      request: (i) => POST('file/batch-download', { folderDataIdList: [i.file] }),
    },
    {
      route: 'POST file/batch-download (uploadIdList)',
      needs: 'download',
      target: 'record',
      onlooker: 'SE_502',
      request: (i) => POST('file/batch-download', { uploadIdList: [i.record] }),
    },
    {
      route: 'POST file/download-ticket (folder)',
      needs: VIEW,
      target: 'folder',
      request: (i) => POST('file/download-ticket', { folderDataIdList: [i.folder] }),
    },
    // Operation log reported by the browser
    {
      route: 'POST operator-log/add-log',
      needs: VIEW,
      target: 'file',
      request: (i) => POST('operator-log/add-log', { folderDataIdList: [i.file], operatorCode: 'FILE13' }),
    },
    // Uploads: a record is its uploader's alone
    {
      route: 'POST file-upload/upload (targetFolderId)',
      needs: 'upload into the folder',
      target: 'folder',
      onlooker: 'SE_502',
      request: (i) =>
        POST('file-upload/upload', {
          targetFolderId: i.folder,
          uploadDetailDTOS: [
            { fileName: `probe ${randomBytes(3).toString('hex')}.jpg`, fileSize: 5, path: '' },
          ],
        }),
    },
    {
      route: 'POST file-upload/multipart/start',
      fresh: 'upload',
      needs: 'own upload',
      target: 'upload',
      onlooker: 'SE_404',
      control: 'bOwner',
      request: (i) => POST('file-upload/multipart/start', { id: i.upload }),
    },
    {
      route: 'POST file-upload/multipart/sign',
      fresh: 'upload',
      needs: 'own upload',
      target: 'upload',
      onlooker: 'SE_404',
      control: 'bOwner',
      setup: (ids) => w.startTransfer(ids),
      request: (i) => POST('file-upload/multipart/sign', { id: i.upload, partNumbers: [1] }),
    },
    {
      route: 'POST file-upload/multipart/part-done',
      fresh: 'upload',
      needs: 'own upload',
      target: 'upload',
      onlooker: 'SE_404',
      control: 'bOwner',
      setup: (ids) => w.startTransfer(ids),
      request: (i) =>
        POST('file-upload/multipart/part-done', { id: i.upload, partNumber: 1, etag: '"e"', size: 10 }),
    },
    {
      route: 'GET file-upload/callback',
      fresh: 'upload',
      needs: 'own upload',
      target: 'upload',
      onlooker: 'SE_404',
      control: 'bOwner',
      request: (i) => GET(`file-upload/callback?id=${i.upload}&status=1&uploadSchedule=5`),
    },
    {
      route: 'GET file-upload/reupload',
      fresh: 'upload',
      needs: 'own upload',
      target: 'upload',
      onlooker: 'SE_404',
      control: 'bOwner',
      setup: async (i) => {
        await call(w.t.app, endpoints.finishUpload, {
          token: w.tokens.bOwner,
          query: { id: i.upload, status: 3 },
        });
      },
      request: (i) => GET(`file-upload/reupload?id=${i.upload}&status=0`),
    },
    {
      route: 'POST file-upload/cancel-upload',
      fresh: 'upload',
      needs: 'own upload',
      target: 'upload',
      onlooker: 'SE_404',
      control: 'bOwner',
      request: (i) => POST('file-upload/cancel-upload', { idList: [i.upload] }),
    },
  ];

  it.each(rows.map((row) => [row.route, row] as const))('%s', async (_route, row) => {
    await w.probe(row);
  });
});
