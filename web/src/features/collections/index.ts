/**
 * Collections (issue 43): the side tab is reached through its lazy route (app/router.tsx); a
 * collection's page (files/CollectionPage) uses what is exported here; listings load the "add to
 * collection" dialog from ./lazy.
 */
export { useCollectionItems, useDragInCollection, useMoveInCollection, useRemoveFromCollection } from './api';
export { MembersDialog } from './MembersDialog';
