import { MAIN_API_PREFIX, SECURITY_API_PREFIX } from '../constants';
import { OPEN_API_PREFIX } from '../open-api-values';
import type { EndpointRoute } from './define';
import type { EndpointName, Endpoints } from './index';

/**
 * The method and full path of every call, without its schemas: what the web app needs at run time
 * to make a call (issue 10 item 7: zod and the schemas stay out of its first-load JavaScript). The
 * schema table (`endpoints`) is built from these entries, so the two cannot drift; `:name` path
 * segments are parameters.
 */
export const routes = {
  // Sign-in and the signed-in user (security API)
  login: { method: 'POST', path: `${SECURITY_API_PREFIX}/login` },
  userInfo: { method: 'POST', path: `${SECURITY_API_PREFIX}/user-info` },
  signOut: { method: 'POST', path: `${SECURITY_API_PREFIX}/sign-out` },
  changeOwnPassword: { method: 'POST', path: `${SECURITY_API_PREFIX}/self-reset-pwd` },
  roleList: { method: 'POST', path: `${SECURITY_API_PREFIX}/roles` },
  // Codes, find/reset password and the caller's own mobile (security API; SPEC hides the code paths)
  sendSignInCode: { method: 'POST', path: `${SECURITY_API_PREFIX}/send-code` },
  sendMobileChangeCode: { method: 'POST', path: `${SECURITY_API_PREFIX}/send-mobile-code` },
  emailResetPassword: { method: 'POST', path: `${SECURITY_API_PREFIX}/email-reset-pwd` },
  loginResetPassword: { method: 'POST', path: `${SECURITY_API_PREFIX}/login-reset-pwd` },
  changeOwnMobile: { method: 'POST', path: `${SECURITY_API_PREFIX}/mobile-modify` },
  changeOwnEmail: { method: 'POST', path: `${SECURITY_API_PREFIX}/email-modify` },
  confirmEmail: { method: 'POST', path: `${SECURITY_API_PREFIX}/email-confirm` },
  // Single sign-on (security API)
  ssoStatus: { method: 'GET', path: `${SECURITY_API_PREFIX}/iam-on-off` },
  ssoStart: { method: 'GET', path: `${SECURITY_API_PREFIX}/login_sso` },
  ssoFinish: { method: 'POST', path: `${SECURITY_API_PREFIX}/oauth-callback` },
  // Departments, users and roles (security API)
  departmentTree: { method: 'POST', path: `${SECURITY_API_PREFIX}/dept-tree` },
  departmentDetail: { method: 'POST', path: `${SECURITY_API_PREFIX}/dept-detail` },
  createDepartment: { method: 'POST', path: `${SECURITY_API_PREFIX}/create-dept` },
  editDepartment: { method: 'POST', path: `${SECURITY_API_PREFIX}/edit-dept` },
  deleteDepartment: { method: 'POST', path: `${SECURITY_API_PREFIX}/delete-dept` },
  userList: { method: 'POST', path: `${SECURITY_API_PREFIX}/user-list` },
  userDetail: { method: 'POST', path: `${SECURITY_API_PREFIX}/user-detail` },
  createUser: { method: 'POST', path: `${SECURITY_API_PREFIX}/create-user` },
  editUser: { method: 'POST', path: `${SECURITY_API_PREFIX}/edit-user` },
  deleteUser: { method: 'POST', path: `${SECURITY_API_PREFIX}/delete-user` },
  resetUserPassword: { method: 'POST', path: `${SECURITY_API_PREFIX}/reset-pwd` },
  createRole: { method: 'POST', path: `${SECURITY_API_PREFIX}/create-role` },
  editRole: { method: 'POST', path: `${SECURITY_API_PREFIX}/edit-role` },
  deleteRole: { method: 'POST', path: `${SECURITY_API_PREFIX}/delete-role` },
  // Folders and listings
  createFolder: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file/creat-folder` },
  updateFolder: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file/update-folder` },
  folderSelector: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file/selector-v2` },
  folderListing: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file/all-file-v2` },
  folderListingByBody: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file/folder` },
  openFolder: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file/check-view-folder` },
  moveItems: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file/batch-move` },
  deleteItems: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file/batch-del` },
  myUploads: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file-upload/user-uploaded` },
  recentFiles: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/resent-file/list` },
  collectItem: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/collect/file-collect` },
  uncollectItem: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/collect/file-cancel-collect` },
  collectedItems: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/collect/file-collect-list` },
  recycleBin: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/recycle/list` },
  restoreItems: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/recycle/batch-restore` },
  purgeItems: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/recycle/batch-del` },
  emptyRecycleBin: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/recycle/clear` },
  // One file
  fileDetail: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file/detail` },
  editFile: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file/edit` },
  hideFormat: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file/hide` },
  deleteVersion: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file/delete-record` },
  // Uploads
  storageInfo: { method: 'GET', path: `${MAIN_API_PREFIX}/sts` },
  createUploads: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file-upload/upload` },
  startMultipart: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file-upload/multipart/start` },
  signParts: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file-upload/multipart/sign` },
  partDone: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file-upload/multipart/part-done` },
  finishUpload: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file-upload/callback` },
  reupload: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file-upload/reupload` },
  unfinishedUploads: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file-upload/uploading` },
  finishedUploads: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file-upload/uploaded-list` },
  cancelUploads: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file-upload/cancel-upload` },
  uploadFolderSelector: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file-upload/selector` },
  putLocalPart: { method: 'PUT', path: `${MAIN_API_PREFIX}/v1_0/file-upload/part` },
  // SKU master data
  skuList: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/sku/data/list` },
  skuOptions: { method: 'GET', path: `${MAIN_API_PREFIX}/selector/sku-info` },
  artNumSuggestions: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file/art-num` },
  fileTagInfo: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/sku/file-tag-info` },
  checkSkus: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/sku/check` },
  skuImportTemplate: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/sku/import-template` },
  importSkus: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/sku/import` },
  // Tags
  tagSelector: { method: 'GET', path: `${MAIN_API_PREFIX}/selector/tags` },
  tagDimensions: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/manage/tag-dimension/list` },
  saveTagDimension: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/update-tag` },
  deleteTagDimension: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/tag-dimension/delete` },
  sortTagDimensions: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/tag-dimension/sort` },
  modifyItemTags: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file/modify-tag` },
  tagsOfItems: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file/tags-of` },
  addChannelTag: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file/add-channel-tag` },
  channelTags: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file/channel-tag` },
  deleteChannelTag: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file/delete-channel-tag` },
  skuTags: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file-upload/list-sku-tag` },
  setSkuTags: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/sku-tag` },
  exportTagWorkbook: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/tag-model-export` },
  importTagWorkbook: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/tag-model-import` },
  // Downloads and download presets
  downloadItems: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file/batch-download` },
  downloadTicket: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file/download-ticket` },
  downloadByArtNums: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file/download-by-art-num` },
  downloadByArtNumsTicket: {
    method: 'POST',
    path: `${MAIN_API_PREFIX}/v1_0/file/download-by-art-num-ticket`,
  },
  redeemDownloadTicket: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file/download` },
  redeemArtNumDownloadTicket: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file/download-by-art-num` },
  downloadPresets: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/download-preset/list` },
  saveDownloadPreset: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/download-preset/save` },
  deleteDownloadPreset: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/download-preset/delete` },
  // Share links
  createShare: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/user/share/produce-random-code` },
  myShares: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/user/share/list` },
  cancelShare: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/user/share/cancel-share` },
  latestShares: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file/new-share` },
  visitShare: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/user/share/random/:code` },
  unlockShare: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/user/share/random/:code` },
  shareFolder: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/user/share/folder` },
  shareFile: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/user/share/file` },
  shareDownload: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/user/share/download` },
  shareDownloadTicket: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/user/share/download-ticket` },
  redeemShareDownloadTicket: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/user/share/download` },
  // Search
  search: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/global/search` },
  // Operation log
  reportOperation: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/operator-log/add-log` },
  operationLog: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/operator-log/list` },
  exportOperationLog: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/operator-log/export` },
  // Data reports (SPEC §2 /manage/data-table, code 6; the paths are hidden by SPEC)
  dataReport: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/data-report/query` },
  exportDataReport: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/data-report/export` },
  // The desktop client's download links (top-bar menu)
  clientDownloads: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/client-download` },
  mailStatus: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/user/mail-status` },
  // Mail groups (SPEC §7 names user/mail-group-list; the manage paths are hidden by SPEC)
  mailGroupList: { method: 'GET', path: `${MAIN_API_PREFIX}/user/mail-group-list` },
  mailNotice: { method: 'POST', path: `${MAIN_API_PREFIX}/user/mail-notice` },
  mailNoticeRecipients: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/user/mail-notice/users` },
  manageMailGroups: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/manage/mail-group/list` },
  mailGroupDetail: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/manage/mail-group/detail` },
  createMailGroup: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/mail-group/create` },
  editMailGroup: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/mail-group/edit` },
  deleteMailGroup: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/mail-group/delete` },
  mailGroupDepartments: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/manage/mail-group/departments` },
  mailGroupCandidates: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/mail-group/users` },
  // Near-duplicates and similar images (issue 17; paths of our own, SPEC names none)
  similarCheck: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file-upload/similar-check` },
  similarAfterUpload: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file-upload/similar-after` },
  similarAttach: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file-upload/similar-attach` },
  similarOfFile: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file/similar` },
  // Embedded metadata (issue 42; a path of our own)
  fileMetadata: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/file/metadata` },
  similarOfSelection: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/file/similar-batch` },
  duplicateReport: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/report/duplicates` },
  exportDuplicateReport: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/report/duplicates/export` },
  // SKU completeness report (issue 14, code 6; paths of our own, SPEC names none)
  completenessConfig: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/manage/completeness/config` },
  saveCompletenessConfig: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/completeness/config` },
  completenessFilterOptions: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/manage/completeness/filters` },
  completenessReport: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/completeness/report` },
  exportCompleteness: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/completeness/export` },
  // Import management (/manage/import, function code 8; issue 14)
  createImport: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/import/create` },
  importDetail: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/manage/import/detail` },
  applyImport: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/import/apply` },
  discardImport: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/import/discard` },
  importList: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/manage/import/list` },
  importErrorReport: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/manage/import/error-report` },
  importTemplate: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/manage/import/template` },
  // Open API access management (/manage/api, function code 7; SPEC §7 /open/*, issue 15)
  openCalls: { method: 'GET', path: `${MAIN_API_PREFIX}/open/getAllApi` },
  apiAccessList: { method: 'GET', path: `${MAIN_API_PREFIX}/open/getAllUserApi` },
  apiAccessDetail: { method: 'POST', path: `${MAIN_API_PREFIX}/open/getUserApiById` },
  saveApiAccess: { method: 'POST', path: `${MAIN_API_PREFIX}/open/addOpenApi` },
  deleteApiAccess: { method: 'POST', path: `${MAIN_API_PREFIX}/open/deleteAPIById` },
  rotateApiSecret: { method: 'POST', path: `${MAIN_API_PREFIX}/open/rotateApiSecret` },
  apiEnterprises: { method: 'POST', path: `${MAIN_API_PREFIX}/open/getEnterpriseId` },
  saveApiEnterprise: { method: 'POST', path: `${MAIN_API_PREFIX}/open/updateEnterpriseId` },
  deleteApiEnterprise: { method: 'POST', path: `${MAIN_API_PREFIX}/open/deleteEnterpriseId` },
  saveEnterpriseCalls: { method: 'POST', path: `${MAIN_API_PREFIX}/open/updateOpenApiToEnterpriseId` },
  webhookList: { method: 'GET', path: `${MAIN_API_PREFIX}/open/webhooks` },
  saveWebhook: { method: 'POST', path: `${MAIN_API_PREFIX}/open/saveWebhook` },
  deleteWebhook: { method: 'POST', path: `${MAIN_API_PREFIX}/open/deleteWebhook` },
  testWebhook: { method: 'POST', path: `${MAIN_API_PREFIX}/open/testWebhook` },
  webhookDeliveries: { method: 'GET', path: `${MAIN_API_PREFIX}/open/webhookDeliveries` },
  redeliverWebhook: { method: 'POST', path: `${MAIN_API_PREFIX}/open/redeliverWebhook` },
  // The open API: calls other systems sign with an access record's key (issue 15)
  openApiDocument: { method: 'GET', path: `${OPEN_API_PREFIX}/openapi.json` },
  openAssetsByArtNums: { method: 'POST', path: `${OPEN_API_PREFIX}/assets/by-art-nums` },
  openAssetsByTag: { method: 'GET', path: `${OPEN_API_PREFIX}/assets/by-tag` },
  openAssetsByFolder: { method: 'GET', path: `${OPEN_API_PREFIX}/assets/by-folder` },
  openAsset: { method: 'GET', path: `${OPEN_API_PREFIX}/assets/:id` },
  openAssetPreview: { method: 'GET', path: `${OPEN_API_PREFIX}/assets/:id/preview` },
  openDownloadUrl: { method: 'POST', path: `${OPEN_API_PREFIX}/assets/download-url` },
  openAssetChanges: { method: 'GET', path: `${OPEN_API_PREFIX}/assets/changes` },
  openDownload: { method: 'GET', path: `${OPEN_API_PREFIX}/download` },
  openCreateUpload: { method: 'POST', path: `${OPEN_API_PREFIX}/uploads` },
  openUploadParts: { method: 'POST', path: `${OPEN_API_PREFIX}/uploads/:id/parts` },
  openCompleteUpload: { method: 'POST', path: `${OPEN_API_PREFIX}/uploads/:id/complete` },
  openTags: { method: 'GET', path: `${OPEN_API_PREFIX}/tags` },
  openFolders: { method: 'GET', path: `${OPEN_API_PREFIX}/folders` },
  // Detail-page composition (issue 16): templates (function code 9) and the maker (SPEC §7 names
  // getTemplateList, getUserSend, makerImage, checkMakerImageStatus; the rest are ours)
  templateList: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/template/getTemplateList` },
  templateDetail: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/template/detail` },
  saveTemplate: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/template/save` },
  deleteTemplate: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/template/delete` },
  templateFonts: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/template/fonts` },
  uploadTemplateAsset: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/template/asset` },
  templateAssetFromFile: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/template/asset-from-file` },
  previewTemplate: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/template/preview` },
  makerPlan: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/image/makerPlan` },
  makerArticle: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/image/makerArticle` },
  makerImage: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/image/makerImage` },
  checkMakerImageStatus: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/image/checkMakerImageStatus` },
  getUserSend: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/image/getUserSend` },
  refreshUserSend: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/image/refreshUserSend` },
  cancelMakerImage: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/image/cancelMakerImage` },
  makerDownloadTicket: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/image/makerDownloadTicket` },
  // The jobs screen (issue 40 item 4; /manage/jobs, function code 10)
  jobsOverview: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/manage/jobs` },
  failedJobs: { method: 'GET', path: `${MAIN_API_PREFIX}/v1_0/manage/jobs/failed` },
  retryJob: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/jobs/retry` },
  retryAllJobs: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/jobs/retry-all` },
  pauseQueue: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/jobs/pause` },
  regeneratePreviews: { method: 'POST', path: `${MAIN_API_PREFIX}/v1_0/manage/jobs/regenerate-previews` },
  // Health check
  health: { method: 'GET', path: '/health' },
  // For orchestrators: the process serves (live), and it can do its work (ready).
  healthLive: { method: 'GET', path: '/health/live' },
  healthReady: { method: 'GET', path: '/health/ready' },
} as const;

/**
 * Every call without its schemas, typed from the schema table: what the web app imports, so that
 * zod and the schemas stay out of its bundle (issue 10 item 7). The type check proves each entry's
 * method and path equal the schema table's (the table is built from the same `routes`), and
 * endpoints.test.ts that both name the same calls.
 */
export const endpointRoutes: { readonly [K in EndpointName]: EndpointRoute<Endpoints[K]> } = routes;
