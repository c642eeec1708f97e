/**
 * Where a document's page images are kept, and how many there are: the media job writes them
 * (jobs/pages.ts), the file detail, share and backup read them, the deletion outbox removes them.
 */

/** The object key of page `page` (from 1) of the document stored at `storageKey`. */
export const pageKeyOf = (storageKey: string, page: number) => `previews/${storageKey}.page-${page}.jpg`;

/**
 * Pages rendered for the viewer; a longer document shows these and offers the download for the
 * rest. The outbox's page keys (deletion-outbox/repository.ts) reach this far too.
 */
export const MAX_RENDERED_PAGES = 300;
