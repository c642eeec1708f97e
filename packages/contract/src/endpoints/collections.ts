import { z } from 'zod';
import {
  collectionDownloadRequestSchema,
  collectionItemsChangeSchema,
  collectionItemsPageSchema,
  collectionItemsQuerySchema,
  collectionItemsRequestSchema,
  collectionMembersSchema,
  collectionQuerySchema,
  collectionRefSchema,
  collectionSummarySchema,
  createCollectionRequestSchema,
  editCollectionRequestSchema,
  moveCollectionItemRequestSchema,
  saveCollectionMembersRequestSchema,
} from '../collections';
import { createShareResultSchema, shareCollectionRequestSchema } from '../shares';
import { defineEndpoint } from './define';
import { routes } from './routes';

/** Collections (issue 43; paths of our own, SPEC names none). Any signed-in user. */
export const collectionsEndpoints = {
  /** The caller's collections and those they are a member of, latest change first. */
  collections: defineEndpoint({
    ...routes.collections,
    reply: 'json',
    result: z.array(collectionSummarySchema),
  }),
  createCollection: defineEndpoint({
    ...routes.createCollection,
    body: createCollectionRequestSchema,
    reply: 'json',
    result: collectionSummarySchema,
  }),
  editCollection: defineEndpoint({
    ...routes.editCollection,
    body: editCollectionRequestSchema,
    reply: 'json',
    result: collectionSummarySchema,
  }),
  deleteCollection: defineEndpoint({
    ...routes.deleteCollection,
    body: collectionRefSchema,
    reply: 'json',
    result: z.null(),
  }),
  collectionMembers: defineEndpoint({
    ...routes.collectionMembers,
    query: collectionQuerySchema,
    reply: 'json',
    result: collectionMembersSchema,
  }),
  saveCollectionMembers: defineEndpoint({
    ...routes.saveCollectionMembers,
    body: saveCollectionMembersRequestSchema,
    reply: 'json',
    result: collectionMembersSchema,
  }),
  collectionItems: defineEndpoint({
    ...routes.collectionItems,
    query: collectionItemsQuerySchema,
    reply: 'json',
    result: collectionItemsPageSchema,
  }),
  addToCollection: defineEndpoint({
    ...routes.addToCollection,
    body: collectionItemsRequestSchema,
    reply: 'json',
    result: collectionItemsChangeSchema,
  }),
  removeFromCollection: defineEndpoint({
    ...routes.removeFromCollection,
    body: collectionItemsRequestSchema,
    reply: 'json',
    result: collectionItemsChangeSchema,
  }),
  moveInCollection: defineEndpoint({
    ...routes.moveInCollection,
    body: moveCollectionItemRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  /** A live share link of the collection (any member; produce-random-code's rules for what it shows them). */
  shareCollection: defineEndpoint({
    ...routes.shareCollection,
    body: shareCollectionRequestSchema,
    reply: 'json',
    result: createShareResultSchema,
  }),
  /** A download link of every item of the collection the caller may see (as download-ticket). */
  collectionDownloadTicket: defineEndpoint({
    ...routes.collectionDownloadTicket,
    body: collectionDownloadRequestSchema,
    reply: 'json',
    result: z.object({ url: z.string() }),
  }),
};
