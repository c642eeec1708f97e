import { z } from 'zod';
import {
  makerArticleRequestSchema,
  makerArticleSchema,
  makerDownloadRequestSchema,
  makerDownloadSchema,
  makerImageRequestSchema,
  makerJobIdSchema,
  makerJobQuerySchema,
  makerPlanRequestSchema,
  makerPlanSchema,
  makerStatusSchema,
  previewTemplateRequestSchema,
  refreshUserSendRequestSchema,
  saveTemplateRequestSchema,
  saveTemplateResultSchema,
  templateAssetFromFileRequestSchema,
  templateAssetSchema,
  templateDetailQuerySchema,
  templateDetailSchema,
  templateFontSchema,
  templateIdRequestSchema,
  templateListQuerySchema,
  templateSummarySchema,
  userSendRequestSchema,
  userSendSchema,
} from '../composite';
import { defineEndpoint } from './define';
import { routes } from './routes';

/**
 * Detail-page composition (issue 16): templates, managed with function code 9 and offered to
 * every signed-in user, and the maker that renders them for article numbers on the composite queue.
 */
export const compositeEndpoints = {
  /** Active templates for composing; `manage=1` (code 9): archived ones too. */
  templateList: defineEndpoint({
    ...routes.templateList,
    query: templateListQuerySchema,
    reply: 'json',
    result: z.array(templateSummarySchema),
  }),
  templateDetail: defineEndpoint({
    ...routes.templateDetail,
    query: templateDetailQuerySchema,
    reply: 'json',
    result: templateDetailSchema,
  }),
  /** Creates a template, or saves a new version of one (only when the spec changed). */
  saveTemplate: defineEndpoint({
    ...routes.saveTemplate,
    body: saveTemplateRequestSchema,
    reply: 'json',
    result: saveTemplateResultSchema,
  }),
  deleteTemplate: defineEndpoint({
    ...routes.deleteTemplate,
    body: templateIdRequestSchema,
    reply: 'json',
    result: z.null(),
  }),
  templateFonts: defineEndpoint({
    ...routes.templateFonts,
    reply: 'json',
    result: z.array(templateFontSchema),
  }),
  /** A multipart/form-data upload of one JPG, PNG or WebP in the field `file` (a brand banner). */
  uploadTemplateAsset: defineEndpoint({
    ...routes.uploadTemplateAsset,
    reply: 'json',
    result: templateAssetSchema,
  }),
  /** A copy of a file the caller may download, as a template asset. */
  templateAssetFromFile: defineEndpoint({
    ...routes.templateAssetFromFile,
    body: templateAssetFromFileRequestSchema,
    reply: 'json',
    result: templateAssetSchema,
  }),
  /** The page as it will be rendered, as a JPEG at most PREVIEW_WIDTH_MAX wide. */
  previewTemplate: defineEndpoint({
    ...routes.previewTemplate,
    body: previewTemplateRequestSchema,
    reply: 'binary',
  }),
  /** Which articles can be rendered and which slots each one misses. */
  makerPlan: defineEndpoint({
    ...routes.makerPlan,
    body: makerPlanRequestSchema,
    reply: 'json',
    result: makerPlanSchema,
  }),
  /** One article's slots as filled, and the files that could fill them instead. */
  makerArticle: defineEndpoint({
    ...routes.makerArticle,
    body: makerArticleRequestSchema,
    reply: 'json',
    result: makerArticleSchema,
  }),
  /** Starts rendering (one job, one row per article). */
  makerImage: defineEndpoint({
    ...routes.makerImage,
    body: makerImageRequestSchema,
    reply: 'json',
    result: makerJobIdSchema,
  }),
  checkMakerImageStatus: defineEndpoint({
    ...routes.checkMakerImageStatus,
    query: makerJobQuerySchema,
    reply: 'json',
    result: makerStatusSchema,
  }),
  /** The caller's composition jobs, newest first. */
  getUserSend: defineEndpoint({
    ...routes.getUserSend,
    body: userSendRequestSchema,
    reply: 'json',
    result: userSendSchema,
  }),
  /** Renders again, as a new job, what a job left missing, failed or cancelled (or the articles named). */
  refreshUserSend: defineEndpoint({
    ...routes.refreshUserSend,
    body: refreshUserSendRequestSchema,
    reply: 'json',
    result: makerJobIdSchema,
  }),
  /** Pending articles are cancelled; the one rendering finishes. */
  cancelMakerImage: defineEndpoint({
    ...routes.cancelMakerImage,
    body: makerJobIdSchema,
    reply: 'json',
    result: z.null(),
  }),
  /** A batch-download link of a job's outputs, a folder per article. */
  makerDownloadTicket: defineEndpoint({
    ...routes.makerDownloadTicket,
    body: makerDownloadRequestSchema,
    reply: 'json',
    result: makerDownloadSchema,
  }),
};
