import type { Config } from './config';
import type { DatabaseHandle } from './db/database';
import { BackfillProgress, FingerprintBackfill } from './jobs/fingerprint-backfill';
import { MediaProcessor } from './jobs/media';
import { LostMediaJobSweep } from './jobs/media-sweep';
import type { JobQueue } from './jobs/queue';
import type { Clock } from './lib/clock';
import { parseNetworks } from './lib/safe-http';
import { SecretBox } from './lib/secret-box';
import { AccessRepository } from './modules/access/access.repository';
import { DepartmentsService } from './modules/accounts/departments';
import { AccountsRepository } from './modules/accounts/repository';
import { RolesService } from './modules/accounts/roles';
import { UsersService } from './modules/accounts/users';
import { deletionGateOf } from './modules/backup/service';
import { CompletenessRepository } from './modules/completeness/repository';
import { CompletenessService } from './modules/completeness/service';
import { createPageRenderer } from './modules/composite/engine/render';
import { ArticleFiller } from './modules/composite/fill';
import { ComposeJob } from './modules/composite/job';
import { MakerRepository } from './modules/composite/maker.repository';
import { MakerService } from './modules/composite/maker.service';
import { TemplatesRepository } from './modules/composite/templates.repository';
import { TemplatesService } from './modules/composite/templates.service';
import { ObjectDeletionsRepository } from './modules/deletion-outbox/repository';
import { ObjectCleaner, type ObjectsFreed } from './modules/deletion-outbox/service';
import { DownloadsRepository } from './modules/downloads/repository';
import { DownloadsService } from './modules/downloads/service';
import { FilesRepository } from './modules/files/repository';
import { FilesService } from './modules/files/service';
import { ImportsRepository } from './modules/imports/repository';
import { ImportsService } from './modules/imports/service';
import { ItemPresenter } from './modules/items/item-pages';
import { PersonalListsService } from './modules/items/personal-lists';
import { PersonalListsRepository } from './modules/items/personal-lists.repository';
import { RecycleBinService } from './modules/items/recycle-bin';
import { RecycleBinRepository } from './modules/items/recycle-bin.repository';
import { ItemsRepository } from './modules/items/repository';
import { ItemsService } from './modules/items/service';
import { UploadTargets } from './modules/items/upload-targets';
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
import { type ComposeFonts, loadComposeFonts } from './modules/media/fonts';
import { ImageWork, imageLimitsOf } from './modules/media/image-limits';
import { SourceFiles } from './modules/media/source-file';
import {
  CHECKED_URL_WINDOW_MS,
  localMediaUrlMaker,
  MediaUrls,
  PRESIGNED_URL_WINDOW_MS,
} from './modules/media/urls';
import { OpenAdminRepository } from './modules/open-api/admin/repository';
import { OpenAdminService } from './modules/open-api/admin/service';
import { OpenAssetsRepository } from './modules/open-api/assets/repository';
import { OpenAssetsService } from './modules/open-api/assets/service';
import { OpenAuthRepository } from './modules/open-api/auth/repository';
import { OpenAuthService } from './modules/open-api/auth/service';
import { OpenChangesRepository } from './modules/open-api/changes/repository';
import { OpenChangesService } from './modules/open-api/changes/service';
import { OpenTransferRepository } from './modules/open-api/transfer/repository';
import { OpenTransferService } from './modules/open-api/transfer/service';
import { PresetsRepository } from './modules/presets/repository';
import { PresetsService } from './modules/presets/service';
import { RateLimiter } from './modules/ratelimit/limiter';
import { RateLimitRepository } from './modules/ratelimit/repository';
import { ReportsRepository } from './modules/reports/repository';
import { ReportsService } from './modules/reports/service';
import { SearchRepository } from './modules/search/repository';
import { SearchService } from './modules/search/service';
import { AccountRecoveryService } from './modules/security/recovery';
import { SecurityRepository } from './modules/security/repository';
import { ADDRESS_LIMIT_MULTIPLE, SecurityService } from './modules/security/service';
import { SharesRepository } from './modules/shares/repository';
import { SharesService } from './modules/shares/service';
import { ShareVisitorService } from './modules/shares/visitor';
import { FingerprintsRepository } from './modules/similar/fingerprints.repository';
import { DuplicateReportService } from './modules/similar/report';
import { DuplicateReportRepository } from './modules/similar/report.repository';
import { SimilarRepository } from './modules/similar/repository';
import { SimilarService } from './modules/similar/service';
import { compileArtNumPattern } from './modules/sku/art-num';
import { SkuRepository } from './modules/sku/repository';
import { SkuService } from './modules/sku/service';
import { SmsCodes } from './modules/sms/codes';
import { SmsCodesRepository } from './modules/sms/repository';
import { httpSmsSender, logSmsSender, type SmsSender } from './modules/sms/senders';
import { SsoRepository } from './modules/sso/repository';
import { SsoService, ssoSettingsOf } from './modules/sso/service';
import { ChannelTagsService } from './modules/tags/channel-tags';
import { TagDimensionsService } from './modules/tags/dimensions';
import { TagExchangeService } from './modules/tags/exchange';
import { ItemTagsService } from './modules/tags/item-tags';
import { TagsRepository } from './modules/tags/repository';
import { SkuTagsService } from './modules/tags/sku-tags';
import { GeneratedFiles } from './modules/uploads/generated';
import { type MediaJobWriter, UploadsRepository } from './modules/uploads/repository';
import { localPartUrlMaker, UploadsService } from './modules/uploads/service';
import { WebhooksRepository } from './modules/webhooks/repository';
import { WebhooksService } from './modules/webhooks/service';
import { createStorage } from './storage/index';
import { LocalStorage } from './storage/local';
import type { ObjectStorage } from './storage/storage';

export type Warn = (details: Record<string, unknown>, message: string) => void;

export interface ServiceDependencies {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  /** The job queue; without one (some tests) finished uploads get no thumbnails. */
  jobs?: JobQueue;
  /** Where services report what went wrong without failing the caller. */
  warn: Warn;
  /** Where long background work reports its progress (the warn log when absent). */
  info?: Warn;
  /** Told of every upload part stored (metrics: modules/metrics). */
  uploadPartStored?: (storage: 'local' | 's3', bytes: number) => void;
}

/** Every service of the application, built once per process by the API server and the worker alike. */
export interface Services {
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

/** Wires repositories, storage and services from the configuration; registers nothing anywhere. */
export async function createServices({
  config,
  database,
  clock,
  jobs,
  warn,
  info = warn,
  uploadPartStored,
}: ServiceDependencies): Promise<Services> {
  const db = database.db;
  const uploadsRepository = new UploadsRepository(db);
  // A record's media job is written in the transaction that makes the record live (issue 38).
  const mediaJobs: MediaJobWriter | null = jobs
    ? (uploadId, handle) => jobs.enqueueMedia(uploadId, handle)
    : null;
  const partUrlSecret = await uploadsRepository.sharedSecret('part-url-secret');
  const storage = createStorage(config, localPartUrlMaker(partUrlSecret), localMediaUrlMaker(partUrlSecret));
  const localPath = (key: string) => (storage instanceof LocalStorage ? storage.pathOf(key) : null);
  // Local media URLs are checked against their session on every use; S3 presigned ones cannot be,
  // so they last minutes (docs/decisions.md).
  const mediaUrls = new MediaUrls(
    storage,
    clock,
    storage instanceof LocalStorage ? CHECKED_URL_WINDOW_MS : PRESIGNED_URL_WINDOW_MS,
  );
  // Objects of removed records are recorded in the deletion outbox with the removal; this queues
  // their jobs afterwards (a lost send is re-sent by the storage maintenance pass).
  const objectsFreed: ObjectsFreed = async (keys) => {
    if (!jobs || keys.length === 0) return;
    await jobs
      .enqueueObjectDeletions(keys)
      .catch((err) => warn({ err }, 'could not queue object deletions (retried later)'));
  };

  const secretBox = SecretBox.load(config.OPEN_API_SECRET_KEY, config.DATA_DIR);
  // Sign-in, SMS and share-password limits count in the database: every server process shares them.
  const limiter = new RateLimiter(new RateLimitRepository(db), clock);
  const mail = new MailService({
    repo: new MailRepository(db),
    transport: createMailTransport({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }, warn),
    clock,
    enqueue: jobs ? (mailId) => jobs.enqueueMail(mailId) : undefined,
    warn,
    storage,
  });
  const smsCodes = new SmsCodes({
    repo: new SmsCodesRepository(db),
    sender: smsSenderOf(config, warn),
    limiter,
    clock,
    warn,
  });
  const security = new SecurityService(
    new SecurityRepository(db),
    new AccessRepository(db),
    clock,
    {
      idleMs: config.SESSION_IDLE_HOURS * 3600_000,
      rememberMs: config.SESSION_REMEMBER_DAYS * 86_400_000,
      passwordMaxAgeDays: config.PASSWORD_MAX_AGE_DAYS,
    },
    limiter,
    {
      perIdentifier: config.LOGIN_RATE_LIMIT,
      perAddress: config.LOGIN_RATE_LIMIT * ADDRESS_LIMIT_MULTIPLE,
    },
    smsCodes,
  );
  const recovery = new AccountRecoveryService({
    repo: new SecurityRepository(db),
    codes: smsCodes,
    mail,
    limiter,
    clock,
    appUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    warn,
  });

  // The operation log: route handlers record each operation right after it succeeded.
  const logs = new LogsService(new LogsRepository(db), clock, config.BUSINESS_TIME_ZONE, limiter);
  const oplog = new OperationRecorder(logs, warn);
  const reports = new ReportsService(new ReportsRepository(db), clock, config.BUSINESS_TIME_ZONE);
  const accountsRepository = new AccountsRepository(db);
  const departments = new DepartmentsService(accountsRepository, clock);
  const users = new UsersService(accountsRepository, clock);
  const roles = new RolesService(accountsRepository, clock);
  const mailGroups = new MailGroupsService(new MailGroupsRepository(db), accountsRepository, clock);
  const openAdmin = new OpenAdminService(new OpenAdminRepository(db), secretBox, clock);
  const mailNotices = new MailNoticesService({
    repo: new MailNoticesRepository(db),
    mail,
    mailGroups,
    storage,
    clock,
    appUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    linkSecret: `${partUrlSecret}:mail-notice`,
    nudge: jobs ? () => jobs.nudgeMailNotices() : undefined,
    warn,
  });
  const completeness = new CompletenessService(
    new CompletenessRepository(db),
    clock,
    config.BUSINESS_TIME_ZONE,
  );
  const sso = new SsoService({
    settings: ssoSettingsOf(config),
    repo: new SsoRepository(db),
    security,
    securityRepo: new SecurityRepository(db),
    accounts: accountsRepository,
    limiter,
    startsPerMinute: config.LOGIN_RATE_LIMIT * ADDRESS_LIMIT_MULTIPLE,
    clock,
    warn,
  });

  const itemsRepository = new ItemsRepository(db);
  const personalListsRepository = new PersonalListsRepository(db);
  const presenter = new ItemPresenter(clock, config.BUSINESS_TIME_ZONE, mediaUrls);
  const items = new ItemsService({
    items: itemsRepository,
    lists: personalListsRepository,
    presenter,
    clock,
  });
  const recycleBin = new RecycleBinService({
    bin: new RecycleBinRepository(db),
    presenter,
    clock,
    objectsFreed,
  });
  const personalLists = new PersonalListsService({
    items: itemsRepository,
    lists: personalListsRepository,
    presenter,
    clock,
  });
  const tagDeps = { tags: new TagsRepository(db), items: new ItemsRepository(db), clock };
  const tagDimensions = new TagDimensionsService(tagDeps);
  const itemTags = new ItemTagsService(tagDeps);
  const channelTags = new ChannelTagsService(tagDeps);
  const skuTags = new SkuTagsService(tagDeps);
  const tagExchange = new TagExchangeService(tagDeps);
  const files = new FilesService({
    files: new FilesRepository(db),
    items: itemsRepository,
    tags: itemTags,
    storage,
    mediaUrls,
    clock,
    timeZone: config.BUSINESS_TIME_ZONE,
    warn,
    objectsFreed,
  });
  const presets = new PresetsService(new PresetsRepository(db), clock);
  const images = new ImageWork(imageLimitsOf(config));
  const downloads = new DownloadsService(
    new DownloadsRepository(db),
    storage,
    clock,
    (id) => presets.get(id),
    config.BUSINESS_TIME_ZONE,
    images,
    localPath,
    warn,
  );
  const uploads = new UploadsService({
    uploads: uploadsRepository,
    targets: new UploadTargets(clock),
    tags: itemTags,
    storage,
    clock,
    partUrlSecret,
    objectsFreed,
    mediaJobs,
    mailNotices: (batchNums) => mailNotices.summariesOf(batchNums),
    warn,
    ...(uploadPartStored ? { partStored: uploadPartStored } : {}),
  });
  const sku = new SkuService({
    sku: new SkuRepository(db),
    tags: skuTags,
    clock,
    artNumPattern: compileArtNumPattern(config.ART_NUM_PATTERN),
  });
  const imports = new ImportsService({
    imports: new ImportsRepository(db),
    clock,
    ...(jobs ? { enqueue: (importId, action) => jobs.enqueueImport(importId, action) } : {}),
    logs,
    warn,
  });
  const search = new SearchService(new SearchRepository(db), clock, config.BUSINESS_TIME_ZONE, mediaUrls);
  const fingerprints = new FingerprintsRepository(db);
  const backfillProgress = new BackfillProgress(fingerprints, () => clock.now());
  const similar = new SimilarService({
    repo: new SimilarRepository(db),
    mediaUrls,
    limiter,
    maxDistance: config.SIMILAR_MAX_DISTANCE,
    maxColourDistance: config.SIMILAR_MAX_COLOUR_DISTANCE,
    progress: () => backfillProgress.current(),
  });
  const duplicates = new DuplicateReportService({
    report: new DuplicateReportRepository(db),
    similarRepo: new SimilarRepository(db),
    similar,
    maxDistance: config.SIMILAR_MAX_DISTANCE,
    maxColourDistance: config.SIMILAR_MAX_COLOUR_DISTANCE,
    progress: () => backfillProgress.current(),
  });
  const shareDeps = {
    shares: new SharesRepository(db),
    items: new ItemsRepository(db),
    mediaUrls,
    clock,
    timeZone: config.BUSINESS_TIME_ZONE,
  };
  const shares = new SharesService(shareDeps);
  const shareVisitors = new ShareVisitorService({
    ...shareDeps,
    files: new FilesRepository(db),
    access: new AccessRepository(db),
    downloads,
    tokenSecret: await uploadsRepository.sharedSecret('share-visitor-secret'),
    limiter,
    passwordRateLimit: config.LOGIN_RATE_LIMIT,
  });

  const openAuth = new OpenAuthService({
    repo: new OpenAuthRepository(db),
    access: new AccessRepository(db),
    limiter,
    secretBox,
    clock,
  });

  const openAssets = new OpenAssetsService({
    repo: new OpenAssetsRepository(db),
    tags: itemTags,
    mediaUrls,
    clock,
    timeZone: config.BUSINESS_TIME_ZONE,
  });

  const openChanges = new OpenChangesService({
    repo: new OpenChangesRepository(db),
    assets: openAssets,
    clock,
  });

  const openTransfer = new OpenTransferService({
    downloads,
    uploads,
    repo: new OpenTransferRepository(db),
    access: new AccessRepository(db),
    limiter,
    clock,
  });

  const webhooks = new WebhooksService({
    repo: new WebhooksRepository(db),
    secretBox,
    clock,
    allowed: parseNetworks(config.WEBHOOK_ALLOWED_NETWORKS),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    // A delivery's job is written in the transaction that writes the delivery (issue 38).
    deliveryJobs: jobs
      ? {
          quick: (deliveries, handle) => jobs.enqueueWebhooks(deliveries, handle),
          now: (delivery, handle) => jobs.enqueueWebhookNow(delivery, handle),
        }
      : undefined,
    warn,
  });

  const media = new MediaProcessor({
    uploads: uploadsRepository,
    items: new ItemsRepository(db),
    storage,
    localPath,
    warn,
    now: () => clock.now(),
    images,
    renderLanes: Math.max(1, config.MEDIA_WORKERS),
    fingerprints: {
      repository: fingerprints,
      // Pairs for the duplicate report are recorded by the similar-images service.
      stored: async (uploadId, known) => {
        await similar.recordPairs(uploadId, known);
      },
    },
  });
  const fingerprintBackfill = new FingerprintBackfill({
    fingerprints,
    items: new ItemsRepository(db),
    storage,
    stored: async (uploadId) => {
      await similar.recordPairs(uploadId);
    },
    info,
    warn,
    now: () => clock.now(),
  });
  const cleaner = new ObjectCleaner({
    objects: new ObjectDeletionsRepository(db),
    storage,
    clock,
    // No object deletion while a backup copies what its snapshot references (modules/backup).
    gate: deletionGateOf(database),
  });

  const composeFonts = await loadComposeFonts(config.COMPOSE_FONTS);
  const pageRenderer = createPageRenderer({ images, fonts: composeFonts });
  const makerRepository = new MakerRepository(db);
  const articleFiller = new ArticleFiller({
    repo: makerRepository,
    clock,
    timeZone: config.BUSINESS_TIME_ZONE,
  });
  const compositeTemplates = new TemplatesService({
    repo: new TemplatesRepository(db),
    fonts: composeFonts,
    renderer: pageRenderer,
    storage,
    localPath,
    images,
    mediaUrls,
    limiter,
    filler: articleFiller,
    clock,
    maxPageHeight: config.COMPOSE_MAX_PAGE_HEIGHT,
    warn,
  });

  const maker = new MakerService({
    repo: makerRepository,
    filler: articleFiller,
    fonts: composeFonts,
    items: new ItemsRepository(db),
    tags: itemTags,
    downloads,
    mediaUrls,
    clock,
    ...(jobs ? { enqueue: (articleIds, urgent) => jobs.enqueueComposite(articleIds, urgent) } : {}),
  });
  const composeJob = new ComposeJob({
    repo: makerRepository,
    filler: articleFiller,
    renderer: pageRenderer,
    generated: new GeneratedFiles({
      storage,
      targets: new UploadTargets(clock),
      clock,
      outbox: new ObjectDeletionsRepository(db),
      objectsFreed,
      // Rendered pages get thumbnails as uploads do.
      mediaJobs,
    }),
    sources: new SourceFiles(storage, images, localPath),
    clock,
    maxPageHeight: config.COMPOSE_MAX_PAGE_HEIGHT,
    warn,
  });

  return {
    storage,
    partUrlSecret,
    mailNotices,
    limiter,
    mail,
    security,
    recovery,
    logs,
    oplog,
    reports,
    departments,
    users,
    roles,
    mailGroups,
    completeness,
    secretBox,
    openAdmin,
    openAuth,
    openAssets,
    openChanges,
    openTransfer,
    webhooks,
    sso,
    items,
    recycleBin,
    personalLists,
    tagDimensions,
    itemTags,
    channelTags,
    skuTags,
    tagExchange,
    files,
    presets,
    images,
    downloads,
    uploads,
    sku,
    imports,
    search,
    similar,
    duplicates,
    fingerprintBackfill: config.FINGERPRINT_BACKFILL ? fingerprintBackfill : null,
    shares,
    shareVisitors,
    media,
    mediaSweep: mediaJobs
      ? new LostMediaJobSweep({ uploads: uploadsRepository, mediaJobs, info, warn })
      : null,
    cleaner,
    composeFonts,
    compositeTemplates,
    maker,
    composeJob,
    jobsAdmin: new JobsAdminService({
      repo: new JobsAdminRepository(db),
      pauses: new QueuePausesRepository(db),
      clock,
      queue: jobs ?? null,
      mediaJobs,
      fingerprintProgress: () => fingerprints.progress(),
    }),
  };
}

/** Where SMS codes go: the configured HTTP gateway, or the server log. */
function smsSenderOf(config: Config, warn: Warn): SmsSender {
  if (config.SMS_PROVIDER === 'log' || !config.SMS_HTTP_URL) return logSmsSender(warn);
  return httpSmsSender({
    url: config.SMS_HTTP_URL,
    method: config.SMS_HTTP_METHOD,
    headers: config.SMS_HTTP_HEADERS,
    body: config.SMS_HTTP_BODY,
    okPattern: config.SMS_HTTP_OK_PATTERN,
    timeoutMs: config.SMS_HTTP_TIMEOUT_MS,
  });
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
    mediaSweep,
  }: Pick<
    Services,
    | 'fingerprintBackfill'
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
  if (composeWorkers > 0)
    await jobs.workComposite(
      (articleId, finalAttempt) => composeJob.run(articleId, finalAttempt),
      composeWorkers,
    );
}
