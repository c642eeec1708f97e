import { endpoints, OperationCode as Op, type OperationCode } from '@dam/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { route } from '../../http/endpoint';
import { authOf } from '../../http/request-context';
import type { DownloadsService } from '../downloads/service';
import type { OperationRecorder } from '../logs/recorder';
import type { LogSubject } from '../logs/snapshot';
import type { SharesService } from '../shares/service';
import type { CollectionChange, CollectionsService } from './service';

/** What the operation log keeps of a collection's change (COL01–COL07). */
const subjectOf = (change: CollectionChange): LogSubject => ({
  newValue: change.name,
  ...(change.items && change.items.length > 0 ? { items: change.items } : {}),
  details: { collectionId: change.id, collectionName: change.name, ...change.details },
});

/** Collections (issue 43): any signed-in user; the service decides what each may see and change. */
export const collectionsRoutes: FastifyPluginAsync<{
  collections: CollectionsService;
  shares: SharesService;
  downloads: DownloadsService;
  oplog: OperationRecorder;
}> = async (app, { collections, shares, downloads, oplog }) => {
  const logged = async (request: FastifyRequest, code: OperationCode, change: CollectionChange) => {
    await oplog.record(request, code, subjectOf(change));
  };
  route(app, endpoints.collections, async (request) => collections.list(authOf(request)));
  route(app, endpoints.createCollection, async (request) => {
    const { name, description, itemIds } = request.body;
    const { summary, change } = await collections.create(authOf(request), name, description, itemIds);
    await logged(request, Op.createCollection, { id: summary.id, name: summary.name });
    if (change.items.length > 0) await logged(request, Op.addToCollection, change);
    return summary;
  });
  route(app, endpoints.editCollection, async (request) => {
    const { id, name, description } = request.body;
    const change = await collections.edit(authOf(request), id, name, description);
    await logged(request, Op.editCollection, change);
    return collections.summary(authOf(request), id);
  });
  route(app, endpoints.deleteCollection, async (request) => {
    await logged(request, Op.deleteCollection, await collections.delete(authOf(request), request.body.id));
    return null;
  });
  route(app, endpoints.collectionMembers, async (request) =>
    collections.members(authOf(request), request.query.id),
  );
  route(app, endpoints.saveCollectionMembers, async (request) => {
    const saved = await collections.saveMembers(authOf(request), request.body.id, request.body.members);
    await logged(request, Op.saveCollectionMembers, saved.change);
    return saved.members;
  });
  route(app, endpoints.collectionItems, async (request) => {
    const { id, pageNo, pageSize } = request.query;
    return collections.items(authOf(request), id, { pageNo, pageSize });
  });
  route(app, endpoints.addToCollection, async (request) => {
    const change = await collections.add(authOf(request), request.body.id, request.body.itemIds);
    if (change.items.length > 0) await logged(request, Op.addToCollection, change);
    return { changed: change.items.length, itemCount: change.itemCount };
  });
  route(app, endpoints.removeFromCollection, async (request) => {
    const change = await collections.remove(authOf(request), request.body.id, request.body.itemIds);
    if (change.items.length > 0) await logged(request, Op.removeFromCollection, change);
    return { changed: change.items.length, itemCount: change.itemCount };
  });
  route(app, endpoints.moveInCollection, async (request) => {
    const { id, itemId, beforeItemId } = request.body;
    const change = await collections.move(authOf(request), id, itemId, beforeItemId);
    // An item put before itself changed nothing: nothing to log.
    if (change) await logged(request, Op.moveInCollection, change);
    return null;
  });

  // A live link of the collection, made by the share service's rules and logged as every link is.
  route(app, endpoints.shareCollection, async (request) => {
    const auth = authOf(request);
    const { id, ...link } = request.body;
    const scope = await collections.shareScope(auth, id);
    const created = await shares.createForCollection(auth, scope, link);
    // The items it showed the sharer when made (the link itself follows the collection afterwards).
    await oplog.record(request, Op.createShare, {
      share: created.id,
      ...(scope.itemIds.length > 0 ? { items: scope.itemIds } : {}),
      details: { collectionId: scope.id, collectionName: scope.name },
    });
    return created;
  });
  // The usual download link (download-ticket): redeeming it counts and logs the download.
  route(app, endpoints.collectionDownloadTicket, async (request) => {
    const auth = authOf(request);
    const batch = await collections.downloadRequest(auth, request.body);
    // A file of the collection the caller may see but not download is listed in the zip's problems
    // file, as a file inside a folder is, rather than refusing the whole collection.
    const plan = await downloads.plan(auth, batch, { count: false, undownloadableAsProblems: true });
    return { url: await downloads.ticketLink(auth, plan) };
  });
};
