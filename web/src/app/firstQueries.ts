import { queryClient } from '../api/queryClient';
import { currentUserQuery } from '../auth/useCurrentUser';
import { folderListingOptions } from '../features/files/api';
import { DEFAULT_SORT } from '../features/files/listingQuery';

// The first page's queries, put in the query cache as soon as the shell's code is there. The router
// has already asked for their answers (askEarly); a query started here takes that answer, so the
// layout and the page find their data in the cache when they first render instead of rendering a
// spinner, asking, and rendering again (issue 12 goal 4). Loaded with the shell, never on its own.

export function seedCurrentUser(): void {
  void queryClient.prefetchQuery(currentUserQuery);
}

export function seedFolderListing(folderId: string): void {
  void queryClient.prefetchInfiniteQuery(folderListingOptions(folderId, DEFAULT_SORT, {}));
}
