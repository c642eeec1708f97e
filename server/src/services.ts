import type { FingerprintBackfill } from './jobs/fingerprint-backfill';
import type { MediaProcessor } from './jobs/media';
import type { LostMediaJobSweep } from './jobs/media-sweep';
import type { JobQueue } from './jobs/queue';
import type { SecretBox } from './lib/secret-box';
import { DepartmentsService } from './modules/accounts/departments';
import { AccountsRepository } from './modules/accounts/repository';
import { RolesService } from './modules/accounts/roles';
import { UsersService } from './modules/accounts/users';
import { deletionGateOf } from './modules/backup/service';
import type { CollectionsService } from './modules/collections/service';
import { wireCollections } from './modules/collections/wiring';
import { CompletenessRepository } from './modules/completeness/repository';
import { CompletenessService } from './modules/completeness/service';
import type { ComposeJob } from './modules/composite/job';
import type { MakerService } from './modules/composite/maker.service';
import type { TemplatesService } from './modules/composite/templates.service';
import { wireComposite } from './modules/composite/wiring';
import { ObjectDeletionsRepository } from './modules/deletion-outbox/repository';
import { ObjectCleaner } from './modules/deletion-outbox/service';
import { DownloadsRepository } from './modules/downloads/repository';
import { DownloadsService } from './modules/downloads/service';
import { FilesService } from './modules/files/service';
import { ImportsRepository } from './modules/imports/repository';
import { ImportsService } from './modules/imports/service';
import type { PersonalListsService } from './modules/items/personal-lists';
import type { RecycleBinService } from './modules/items/recycle-bin';
import type { ItemsService } from './modules/items/service';
import { UploadTargets } from './modules/items/upload-targets';
import { wireItems } from './modules/items/wiring';
import { QueuePausesRepository } from './modules/jobs-admin/pauses.repository';
import { JobsAdminRepository } from './modules/jobs-admin/repository';
import { JobsAdminService } from './modules/jobs-admin/service';
import { OperationRecorder } from './modules/logs/recorder';
import { LogsRepository } from './modules/logs/repository';
import { LogsService } from './modules/logs/service';
import { MailRepository } from './modules/mail/repository';
import { MailService } from './modules/mail/service';
import { createMailTransport } from './modules/mail/transport';
import { MailGroupsRepository } from './modules/mail-groups/repository';
import { MailGroupsService } from './modules/mail-groups/service';
import { MailNoticesRepository } from './modules/mail-notices/repository';
import { MailNoticesService } from './modules/mail-notices/service';
import type { ComposeFonts } from './modules/media/fonts';
import type { ImageWork } from './modules/media/image-limits';
import { wireMedia } from './modules/media/wiring';
import { downloadMetadataWriter, type MetadataServices, wireMetadata } from './modules/metadata/wiring';
import type { OpenAdminService } from './modules/open-api/admin/service';
import type { OpenAssetsService } from './modules/open-api/assets/service';
import type { OpenAuthService } from './modules/open-api/auth/service';
import type { OpenChangesService } from './modules/open-api/changes/service';
import type { OpenTransferService } from './modules/open-api/transfer/service';
import { wireOpenApi } from './modules/open-api/wiring';
import { PresetsRepository } from './modules/presets/repository';
import { PresetsService } from './modules/presets/service';
import type { RateLimiter } from './modules/ratelimit/limiter';
import { ReportsRepository } from './modules/reports/repository';
import { ReportsService } from './modules/reports/service';
import type { ReviewService } from './modules/review/service';
import { wireReview } from './modules/review/wiring';
import { SearchRepository } from './modules/search/repository';
import { SearchService } from './modules/search/service';
import type { AccountRecoveryService } from './modules/security/recovery';
import type { SecurityService } from './modules/security/service';
import { wireSignIn } from './modules/security/wiring';
import type { SharesService } from './modules/shares/service';
import type { ShareVisitorService } from './modules/shares/visitor';
import { wireShares } from './modules/shares/wiring';
import type { DuplicateReportService } from './modules/similar/report';
import type { SimilarService } from './modules/similar/service';
import { wireSimilar } from './modules/similar/wiring';
import { compileArtNumPattern } from './modules/sku/art-num';
import { SkuRepository } from './modules/sku/repository';
import { SkuService } from './modules/sku/service';
import type { SsoService } from './modules/sso/service';
import type { ChannelTagsService } from './modules/tags/channel-tags';
import type { TagDimensionsService } from './modules/tags/dimensions';
import type { TagExchangeService } from './modules/tags/exchange';
import type { ItemTagsService } from './modules/tags/item-tags';
import type { SkuTagsService } from './modules/tags/sku-tags';
import { wireTags } from './modules/tags/wiring';
import { UploadsService } from './modules/uploads/service';
import type { WebhooksService } from './modules/webhooks/service';
import { wireWebhooks } from './modules/webhooks/wiring';
import { createPlatform, type ServiceDependencies } from './platform';
import { filesOn, tagsOn, uploadsOn } from './repositories';
import type { ObjectStorage } from './storage/storage';

export type { ServiceDependencies, Warn } from './platform';

/** Every service of the application, built once per process by the API server and the worker alike. */
export interface Services extends MetadataServices {
  storage: ObjectStorage;
  /** Signs local part-upload and media URLs. */
  partUrlSecret: string;
  limiter: RateLimiter;
  /** The product's mail: the outbox and its delivery (the mail job). */
  mail: MailService;
  security: SecurityService;
  /** SMS codes, password reset and the change of one's own number. */
  recovery: AccountRecoveryService;
  logs: LogsService;
  oplog: OperationRecorder;
  /** Data reports (function code 6) and their daily rollup (the report-rollup job). */
  reports: ReportsService;
  departments: DepartmentsService;
  users: UsersService;
  roles: RolesService;
  /** Mail groups (function code 1; any signed-in user lists those they may send to). */
  mailGroups: MailGroupsService;
  /** Upload mail notices: sent once a batch has finished and its delay has passed. */
  mailNotices: MailNoticesService;
  /** The SKU completeness report (function code 6). */
  completeness: CompletenessService;
  /** Encrypts the open API's key secrets at rest (OPEN_API_SECRET_KEY or DATA_DIR/open-api.key). */
  secretBox: SecretBox;
  /** Open API access management (function code 7): enterprises, access records, their keys. */
  openAdmin: OpenAdminService;
  /** The open API's key check (signed requests, allowed calls, limits, usage counts). */
  openAuth: OpenAuthService;
  /** The open API's asset calls (by article number, tag, folder; one asset; preview links). */
  openAssets: OpenAssetsService;
  /** The open API's "changed since" (the asset journal of migration 023) and its retention sweep. */
  openChanges: OpenChangesService;
  /** The open API's download links (and their redemption) and upload entry. */
  openTransfer: OpenTransferService;
  /** Webhooks of access records: management, the dispatch pass and the delivery job. */
  webhooks: WebhooksService;
  /** Company single sign-on (OIDC_*); off when OIDC_ISSUER is unset. */
  sso: SsoService;
  items: ItemsService;
  recycleBin: RecycleBinService;
  personalLists: PersonalListsService;
  /** Collections of references to files and folders (issue 43). */
  collections: CollectionsService;
  /** Review of files (issue 43 item 2). */
  review: ReviewService;
  tagDimensions: TagDimensionsService;
  itemTags: ItemTagsService;
  channelTags: ChannelTagsService;
  skuTags: SkuTagsService;
  tagExchange: TagExchangeService;
  files: FilesService;
  presets: PresetsService;
  /** One pixel limit and image memory budget for thumbnails and download conversions alike. */
  images: ImageWork;
  downloads: DownloadsService;
  uploads: UploadsService;
  sku: SkuService;
  /** Import management (function code 8): dry runs and applies run as import jobs. */
  imports: ImportsService;
  search: SearchService;
  /** Near-duplicates and similar images (issue 17): the upload checks, a file's similar images, the pairs. */
  similar: SimilarService;
  /** The near-duplicate report (function code 6). */
  duplicates: DuplicateReportService;
  shares: SharesService;
  shareVisitors: ShareVisitorService;
  /** Fingerprints of the files uploaded before near-duplicate detection (issue 17), a batch a job. */
  fingerprintBackfill: FingerprintBackfill | null;
  /** Thumbnails and previews of finished uploads (the media job). */
  media: MediaProcessor;
  /** Queues the media jobs lost by older versions (started by workJobs, stopped at shutdown); null without a job queue. */
  mediaSweep: LostMediaJobSweep | null;
  /** Deletes objects no record holds any more (the object-deletion job). */
  cleaner: ObjectCleaner;
  /** Fonts of detail-page text (issue 16), read at start-up (COMPOSE_FONTS and the built-in ones). */
  composeFonts: ComposeFonts;
  /** Detail-page templates (function code 9 manages them), their fixed images and exact previews. */
  compositeTemplates: TemplatesService;
  /** Detail-page composition jobs (issue 16): plans, starts, progress, zips. */
  maker: MakerService;
  /** The render of one article of a composition job (the composite job). */
  composeJob: ComposeJob;
  /** The jobs screen (issue 40 item 4; function code 10): queues, failed jobs, retries, pauses, previews again. */
  jobsAdmin: JobsAdminService;
}

/**
 * Wires repositories, storage and services from the configuration; registers nothing anywhere.
 * The shared pieces come first (platform.ts); a module with several services wires them in its
 * own `wiring.ts`, the rest are one constructor each.
 */
export async function createServices(dependencies: ServiceDependencies): Promise<Services> {
  const platform = await createPlatform(dependencies);
  const { config, database, db, clock, jobs, warn, storage, mediaUrls, localPath, objectsFreed } = platform;
  const timeZone = config.BUSINESS_TIME_ZONE;
  const mail = new MailService({
    repo: new MailRepository(db),
    transport: createMailTransport({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }, warn),
    clock,
    enqueue: jobs ? (mailId) => jobs.enqueueMail(mailId) : undefined,
    warn,
    storage,
  });
  const accounts = new AccountsRepository(db);
  const signIn = wireSignIn(platform, { mail, accounts });
  // The operation log: route handlers record each operation right after it succeeded.
  const logs = new LogsService(new LogsRepository(db), clock, timeZone, platform.limiter);
  const mailGroups = new MailGroupsService(new MailGroupsRepository(db), accounts, clock);
  const mailNotices = new MailNoticesService({
    repo: new MailNoticesRepository(db, (handle) => new MailRepository(handle)),
    mail,
    mailGroups,
    storage,
    clock,
    appUrl: platform.appUrl,
    linkSecret: `${platform.partUrlSecret}:mail-notice`,
    nudge: jobs ? () => jobs.nudgeMailNotices() : undefined,
    warn,
  });
  const itemServices = wireItems(platform);
  const tags = wireTags(platform);
  const presets = new PresetsService(new PresetsRepository(db), clock);
  const downloads = new DownloadsService(
    new DownloadsRepository(db),
    storage,
    clock,
    (id) => presets.get(id),
    timeZone,
    platform.images,
    localPath,
    warn,
    downloadMetadataWriter(platform),
  );
  const { review } = wireReview(platform, { presenter: itemServices.presenter, mail });
  const uploads = new UploadsService({
    uploads: platform.uploadsRepository,
    targets: new UploadTargets(clock),
    tags: tags.itemTags,
    storage,
    clock,
    partUrlSecret: platform.partUrlSecret,
    objectsFreed,
    mediaJobs: platform.mediaJobs,
    mailNotices: (batchNums) => mailNotices.summariesOf(batchNums),
    newVersion: review,
    warn,
    ...(dependencies.uploadPartStored ? { partStored: dependencies.uploadPartStored } : {}),
  });
  const { fingerprints, ...similarServices } = wireSimilar(platform);
  const { metadataProgress, afterMetadataSaved, ...metadata } = wireMetadata(platform, {
    items: itemServices.itemsRepository,
    logs,
  });
  return {
    storage,
    partUrlSecret: platform.partUrlSecret,
    limiter: platform.limiter,
    secretBox: platform.secretBox,
    images: platform.images,
    mail,
    ...signIn,
    logs,
    oplog: new OperationRecorder(logs, warn),
    reports: new ReportsService(new ReportsRepository(db), clock, timeZone),
    departments: new DepartmentsService(accounts, clock),
    users: new UsersService(accounts, clock),
    roles: new RolesService(accounts, clock),
    mailGroups,
    mailNotices,
    completeness: new CompletenessService(new CompletenessRepository(db), clock, timeZone),
    items: itemServices.items,
    recycleBin: itemServices.recycleBin,
    personalLists: itemServices.personalLists,
    ...wireCollections(platform, { presenter: itemServices.presenter }),
    review,
    ...tags,
    files: new FilesService({
      files: filesOn(db),
      items: itemServices.itemsRepository,
      tags: tags.itemTags,
      storage,
      mediaUrls,
      clock,
      timeZone,
      warn,
      objectsFreed,
    }),
    presets,
    downloads,
    uploads,
    sku: new SkuService({
      sku: new SkuRepository(db),
      tags: tags.skuTags,
      clock,
      artNumPattern: compileArtNumPattern(config.ART_NUM_PATTERN),
    }),
    imports: new ImportsService({
      imports: new ImportsRepository(db),
      clock,
      ...(jobs ? { enqueue: (importId, action) => jobs.enqueueImport(importId, action) } : {}),
      logs,
      warn,
      tagsOn,
      skuOn: (handle) => new SkuRepository(handle),
    }),
    search: new SearchService(new SearchRepository(db), clock, timeZone, mediaUrls),
    ...similarServices,
    ...metadata,
    ...(await wireShares(platform, { downloads })),
    ...wireOpenApi(platform, { itemTags: tags.itemTags, downloads, uploads }),
    webhooks: wireWebhooks(platform),
    ...wireMedia(platform, { fingerprints, similar: similarServices.similar, afterMetadataSaved }),
    cleaner: new ObjectCleaner({
      objects: new ObjectDeletionsRepository(db),
      storage,
      clock,
      // No object deletion while a backup copies what its snapshot references (modules/backup).
      gate: deletionGateOf(database),
    }),
    ...(await wireComposite(platform, { itemTags: tags.itemTags, downloads })),
    jobsAdmin: new JobsAdminService({
      repo: new JobsAdminRepository(db, uploadsOn),
      pauses: new QueuePausesRepository(db),
      clock,
      queue: jobs ?? null,
      mediaJobs: platform.mediaJobs,
      fingerprintProgress: () => fingerprints.progress(),
      metadataProgress,
    }),
  };
}

/**
 * Takes media, object-deletion and mail jobs off the queue in this process, `mediaWorkers` media
 * jobs at a time, and `composeWorkers` composition renders (0: none in this process).
 */
export async function workJobs(
  {
    media,
    cleaner,
    mail,
    mailNotices,
    reports,
    imports,
    openChanges,
    webhooks,
    composeJob,
    fingerprintBackfill,
    metadataBackfill,
    mediaSweep,
  }: Pick<
    Services,
    | 'fingerprintBackfill'
    | 'metadataBackfill'
    | 'media'
    | 'mediaSweep'
    | 'cleaner'
    | 'mail'
    | 'mailNotices'
    | 'reports'
    | 'imports'
    | 'openChanges'
    | 'webhooks'
    | 'composeJob'
  >,
  jobs: JobQueue,
  mediaWorkers: number,
  composeWorkers = 0,
): Promise<void> {
  await jobs.workMail((mailId, finalAttempt) => mail.deliver(mailId, finalAttempt));
  await jobs.workImports((importId, action) => imports.run(importId, action));
  await jobs.workWebhooks((deliveryId, lane) => webhooks.deliver(deliveryId, lane));
  await jobs.workWebhookDispatch(() => webhooks.dispatch());
  await jobs.workMailNotices(() => mailNotices.dispatchDue());
  await jobs.workMedia(async (uploadId) => {
    const batchNum = await media.process(uploadId);
    // The last thumbnail of a batch with a notice waiting: the notice may go now.
    if (batchNum !== null) await mailNotices.afterMedia(batchNum);
  }, mediaWorkers);
  // Once per start-up, by the processes that work media jobs: jobs an older version lost. In the
  // background: start-up waits for neither it nor its database (its owner stops it at shutdown).
  mediaSweep?.start();
  await jobs.workObjectDeletions({
    deleteObject: (key) => cleaner.deleteObject(key),
    maintain: () => cleaner.maintain(),
  });
  await jobs.workReportRollup(() => reports.rollUp());
  await jobs.workAssetChangesSweep(() => openChanges.sweep());
  if (fingerprintBackfill) await jobs.workFingerprintBackfill(() => fingerprintBackfill.runBatch());
  if (metadataBackfill) await jobs.workMetadataBackfill(() => metadataBackfill.runBatch());
  if (composeWorkers > 0)
    await jobs.workComposite(
      (articleId, finalAttempt) => composeJob.run(articleId, finalAttempt),
      composeWorkers,
    );
}
