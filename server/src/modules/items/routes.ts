import { endpoints, folderListingRequestSchema, OperationCode } from '@dam/contract';
import type { FastifyPluginAsync } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { OperationRecorder } from '../logs/recorder';
import type { PersonalListsService } from './personal-lists';
import type { RecycleBinService } from './recycle-bin';
import type { ItemsService } from './service';

/** Folders and files, the recycle bin, favourites, recently viewed and my uploads (SPEC §7). */
export const itemsRoutes: FastifyPluginAsync<{
  items: ItemsService;
  recycleBin: RecycleBinService;
  personalLists: PersonalListsService;
  oplog: OperationRecorder;
}> = async (app, { items, recycleBin, personalLists, oplog }) => {
  route(app, endpoints.createFolder, async (request) => {
    const created = await items.createFolder(authOf(request), request.body);
    await oplog.record(request, OperationCode.createFolder, { items: [created.folderId] });
    return created;
  });

  route(app, endpoints.updateFolder, async (request) => {
    const subject = { items: [request.body.folderDataId] };
    await oplog.around(request, OperationCode.edit, subject, () =>
      items.updateFolder(authOf(request), request.body),
    );
    return null;
  });

  route(app, endpoints.folderSelector, async (request) =>
    items.folderSelector(authOf(request), request.query.currentFolderId, request.query.withCounts === '1'),
  );

  route(app, endpoints.folderListing, async (request) => items.listFolder(authOf(request), request.query));

  route(app, endpoints.folderListingByBody, async (request) => {
    // SPEC §7: "body and params": paging may come in the query string, the filter in the body.
    const merged = folderListingRequestSchema.parse({ ...request.body, ...request.query });
    return items.listFolder(authOf(request), merged);
  });

  route(app, endpoints.openFolder, async (request) =>
    items.openFolder(authOf(request), request.body.folderDataId),
  );

  route(app, endpoints.moveItems, async (request) => {
    const subject = { items: request.body.folderDataIdList };
    await oplog.around(request, OperationCode.move, subject, () =>
      items.batchMove(authOf(request), request.body),
    );
    return null;
  });

  route(app, endpoints.deleteItems, async (request) => {
    const ids = [...request.body.idList, ...request.body.folderIdList];
    await items.batchDelete(authOf(request), ids);
    await oplog.record(request, OperationCode.delete, { items: ids });
    return null;
  });

  route(app, endpoints.myUploads, async (request) =>
    personalLists.listMyUploads(authOf(request), request.query),
  );
  route(app, endpoints.recentFiles, async (request) =>
    personalLists.listRecent(authOf(request), request.query),
  );

  // Favourites
  route(app, endpoints.collectItem, async (request) => {
    await personalLists.collect(authOf(request), request.query.folderDataId);
    await oplog.record(request, OperationCode.collect, { items: [request.query.folderDataId] });
    return null;
  });
  route(app, endpoints.uncollectItem, async (request) => {
    await personalLists.cancelCollect(authOf(request), request.query.folderDataId);
    await oplog.record(request, OperationCode.cancelCollect, { items: [request.query.folderDataId] });
    return null;
  });
  route(app, endpoints.collectedItems, async (request) =>
    personalLists.listCollected(authOf(request), request.query),
  );

  // Recycle bin
  route(app, endpoints.recycleBin, async (request) => recycleBin.listRecycle(authOf(request), request.query));
  route(app, endpoints.restoreItems, async (request) => {
    await recycleBin.restore(authOf(request), request.query.ids);
    await oplog.record(request, OperationCode.restore, { items: request.query.ids });
    return null;
  });
  route(app, endpoints.purgeItems, async (request) => {
    const subject = { items: request.query.ids };
    await oplog.around(request, OperationCode.purge, subject, () =>
      recycleBin.purge(authOf(request), request.query.ids),
    );
    return null;
  });
  route(app, endpoints.emptyRecycleBin, async (request) => {
    const subject = { recycleBinOf: authOf(request).userId, details: { emptied: true } };
    await oplog.around(request, OperationCode.purge, subject, () => recycleBin.clearRecycle(authOf(request)));
    return null;
  });
};
