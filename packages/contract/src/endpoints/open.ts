import {
  openAssetIdParamsSchema,
  openAssetPageSchema,
  openAssetSchema,
  openByArtNumsRequestSchema,
  openByArtNumsResultSchema,
  openByFolderQuerySchema,
  openByTagQuerySchema,
  openChangesPageSchema,
  openChangesQuerySchema,
  openDownloadQuerySchema,
  openDownloadUrlRequestSchema,
  openDownloadUrlResultSchema,
  openFolderListSchema,
  openFolderQuerySchema,
  openPreviewResultSchema,
  openTagListSchema,
  openUploadCompleteRequestSchema,
  openUploadCompleteResultSchema,
  openUploadIdParamsSchema,
  openUploadPartsRequestSchema,
  openUploadPartsResultSchema,
  openUploadRequestSchema,
  openUploadResultSchema,
} from '../open-api-schemas';
import { defineEndpoint } from './define';
import { routes } from './routes';

/**
 * The open API: what the brand's other systems (e-commerce, PIM, ERP) call, each request signed
 * with an access record's key (docs/decisions.md, "Open API: signed requests"). A record acts with
 * the rights of its user; `openCall` is what its enterprise must allow. The OpenAPI document is
 * generated from this table (contract/src/openapi-document.ts).
 */
export const openEndpoints = {
  /** The OpenAPI 3.1 document of these calls (any valid key). */
  openApiDocument: defineEndpoint({
    ...routes.openApiDocument,
    reply: 'binary',
    openCall: 'any',
    doc: { tag: 'Meta', summary: 'The OpenAPI 3.1 document of the open API' },
  }),
  openAssetsByArtNums: defineEndpoint({
    ...routes.openAssetsByArtNums,
    body: openByArtNumsRequestSchema,
    reply: 'json',
    result: openByArtNumsResultSchema,
    openCall: 'assets.byArtNums',
    doc: {
      tag: 'Assets',
      summary: 'Assets of up to 10,000 article numbers',
      description:
        'Article numbers are matched case-insensitively; those with no asset are listed in `unmatched`.',
    },
  }),
  openAssetsByTag: defineEndpoint({
    ...routes.openAssetsByTag,
    query: openByTagQuerySchema,
    reply: 'json',
    result: openAssetPageSchema,
    openCall: 'assets.byTag',
    doc: { tag: 'Assets', summary: 'Assets carrying a tag, cursor-paged' },
  }),
  openAssetsByFolder: defineEndpoint({
    ...routes.openAssetsByFolder,
    query: openByFolderQuerySchema,
    reply: 'json',
    result: openAssetPageSchema,
    openCall: 'assets.byFolder',
    doc: { tag: 'Assets', summary: "A folder's assets (or all below it), cursor-paged" },
  }),
  openAsset: defineEndpoint({
    ...routes.openAsset,
    params: openAssetIdParamsSchema,
    reply: 'json',
    result: openAssetSchema,
    openCall: 'assets.get',
    doc: { tag: 'Assets', summary: 'One asset: formats, sizes, tags, validity' },
  }),
  openAssetPreview: defineEndpoint({
    ...routes.openAssetPreview,
    params: openAssetIdParamsSchema,
    reply: 'json',
    result: openPreviewResultSchema,
    openCall: 'assets.previewUrl',
    doc: { tag: 'Assets', summary: "Time-limited links to an asset's preview and thumbnail" },
  }),
  openDownloadUrl: defineEndpoint({
    ...routes.openDownloadUrl,
    body: openDownloadUrlRequestSchema,
    reply: 'json',
    result: openDownloadUrlResultSchema,
    openCall: 'assets.downloadUrl',
    doc: {
      tag: 'Assets',
      summary: 'Time-limited download links, as stored or converted (format, longer side, background)',
      description:
        'Send exactly one of `assetIds` and `artNums`, and at most one of `output` and `presetId`. `zip` answers one link to a zip of everything; `files` one link per file (at most 1,000). Links need no signature and die with the access record.',
    },
  }),
  openAssetChanges: defineEndpoint({
    ...routes.openAssetChanges,
    query: openChangesQuerySchema,
    reply: 'json',
    result: openChangesPageSchema,
    openCall: 'assets.changes',
    doc: {
      tag: 'Assets',
      summary: 'What changed since a cursor or an instant (created, formats, metadata, tags, moved, deleted)',
      description:
        'Oldest first; keep `nextCursor` and start the next call there. Changes are kept 30 days: an older cursor is SEOA_07 (resynchronise by folder or article number). At least once: a change may repeat after a retry.',
    },
  }),
  /** The link of openDownloadUrl: the ticket authorises, so it is not signed. */
  openDownload: defineEndpoint({
    ...routes.openDownload,
    query: openDownloadQuerySchema,
    reply: 'binary',
    doc: { tag: 'Assets', summary: 'Fetch a download link (no signature: the ticket is the authorisation)' },
  }),
  openCreateUpload: defineEndpoint({
    ...routes.openCreateUpload,
    body: openUploadRequestSchema,
    reply: 'json',
    result: openUploadResultSchema,
    openCall: 'uploads',
    doc: {
      tag: 'Uploads',
      summary: 'Start uploading files into a folder (multipart: PUT each part to its link)',
    },
  }),
  openUploadParts: defineEndpoint({
    ...routes.openUploadParts,
    params: openUploadIdParamsSchema,
    body: openUploadPartsRequestSchema,
    reply: 'json',
    result: openUploadPartsResultSchema,
    openCall: 'uploads',
    doc: { tag: 'Uploads', summary: "Links for more of an upload's parts" },
  }),
  openCompleteUpload: defineEndpoint({
    ...routes.openCompleteUpload,
    params: openUploadIdParamsSchema,
    body: openUploadCompleteRequestSchema,
    reply: 'json',
    result: openUploadCompleteResultSchema,
    openCall: 'uploads',
    doc: { tag: 'Uploads', summary: 'Finish an upload: the file becomes an asset' },
  }),
  openTags: defineEndpoint({
    ...routes.openTags,
    reply: 'json',
    result: openTagListSchema,
    openCall: 'tags.list',
    doc: { tag: 'Catalogue', summary: 'Tag dimensions and their tags' },
  }),
  openFolders: defineEndpoint({
    ...routes.openFolders,
    query: openFolderQuerySchema,
    reply: 'json',
    result: openFolderListSchema,
    openCall: 'folders.list',
    doc: { tag: 'Catalogue', summary: 'Folders under a parent (the top without one)' },
  }),
};
