// The folder listing's request, apart from the hooks that make it: defined in the contract, since
// the router asks for a folder's first page before the page's code has arrived and the server
// answers that call inside the page's HTML (issue 12 goal 4); the page's own call must then be the
// very same request to take that answer.
export {
  DEFAULT_SORT,
  FOLDER_PAGE_SIZE as PAGE_SIZE,
  folderListingQuery,
  type ListingFilter,
  type SortState,
} from '@dam/contract';
