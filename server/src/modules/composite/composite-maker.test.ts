import {
  endpoints,
  ItemType,
  type MakerStatus,
  type TemplateSpecInput,
  templateSpecSchema,
} from '@dam/contract';
import { type CompiledQuery, type KyselyPlugin, sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call, fetchBytes } from '../../../test/call';
import {
  EVERY_SCOPE,
  givenFiles,
  givenFolder,
  givenSignedInUser,
  givenTag,
  signInAdmin,
  uniqueName,
} from '../../../test/factories';
import { makeCorruptJpeg } from '../../../test/fixtures';
import { ADMIN, createTestApp, type TestApp } from '../../../test/harness';
import { readZip } from '../../../test/zip';
import { MakerRepository } from './maker.repository';
import { makerPeers } from './wiring';

/**
 * The maker of detail pages (issue 16, plan §7 "Maker") on the real app with its job queue: jobs
 * render on the composite queue, outputs become files of the target folder, the zip comes through
 * the batch-download ticket.
 */

const WIDTH = 400;
const RED = { r: 230, g: 20, b: 20 };
const GREEN = { r: 20, g: 200, b: 40 };
const BLUE = { r: 20, g: 40, b: 220 };
const GREY = { r: 128, g: 128, b: 128 };

const solidJpeg = (colour: { r: number; g: number; b: number }, width = 400, height = 400) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg({ quality: 95 })
    .toBuffer();

/** front 200 px, side 200 px, sole 200 px (required), a 2-cell detail grid of square cells (200 px). */
const SPEC: TemplateSpecInput = {
  width: WIDTH,
  background: '#ffffff',
  blocks: [
    { id: 'front', type: 'image', label: '正面', rule: { kind: 'view', code: 'front' }, height: 200 },
    { id: 'side', type: 'image', label: '侧面', rule: { kind: 'view', code: 'side' }, height: 200 },
    { id: 'sole', type: 'image', label: '鞋底', rule: { kind: 'view', code: 'sole' }, height: 200 },
    {
      id: 'detail',
      type: 'grid',
      label: '细节',
      columns: 2,
      cells: [
        { kind: 'view', code: 'detail' },
        { kind: 'view', code: 'detail' },
      ],
    },
  ],
  output: { sliceMaxHeight: 300, quality: 90, stem: '详情页', page: true, slices: true, tagIds: [] },
};

let t: TestApp;
let admin: string;
let templateId: number;

/** A template with one version, written directly (the template calls are another module's). */
async function givenTemplate(spec: TemplateSpecInput = SPEC, status = 1): Promise<number> {
  const parsed = templateSpecSchema.parse(spec);
  const db = t.database.db;
  const { id } = await db
    .insertInto('composite_templates')
    .values({ name: uniqueName('Tpl'), status, current_version: 1, updated_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('composite_template_versions')
    .values({
      template_id: id,
      version: 1,
      spec: JSON.stringify(parsed),
      width: parsed.width,
      block_count: parsed.blocks.length,
      slice_max_height: parsed.output.sliceMaxHeight,
    })
    .execute();
  return id;
}

/** Shots of an article as `<artNum>_<view>.jpg` in a folder of `token`'s; answers item ids by view. */
async function givenShots(
  token: string,
  artNum: string,
  shots: Record<string, { r: number; g: number; b: number }>,
  folderId?: number,
): Promise<Record<string, number>> {
  const names = Object.keys(shots);
  const files = await Promise.all(
    names.map(async (view) => ({
      fileName: `${artNum}_${view}.jpg`,
      bytes: await solidJpeg(shots[view] as { r: number; g: number; b: number }),
      artNum,
    })),
  );
  const folder = folderId ?? (await givenFolder(t, token)).id;
  const ids = await givenFiles(t, token, files, { targetFolderId: folder });
  return Object.fromEntries(names.map((view, i) => [view, ids[i] as number]));
}

/** Polls the job until it is no longer running. */
async function finished(token: string, jobId: number): Promise<MakerStatus> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const status = await call(t.app, endpoints.checkMakerImageStatus, { token, query: { jobId } });
    if (status.job.status !== 'running') return status;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still running: ${JSON.stringify(status.job)}`);
    await new Promise((resume) => setTimeout(resume, 200));
  }
}

async function compose(
  token: string,
  artNums: string[],
  targetFolderId: number,
  extra: { tagIdList?: number[]; overrides?: { artNum: string; slot: string; itemId: number }[] } = {},
): Promise<MakerStatus> {
  const { jobId } = await call(t.app, endpoints.makerImage, {
    token,
    body: { templateId, version: 1, artNums, targetFolderId, ...extra },
  });
  return finished(token, jobId);
}

/** The bytes of an upload record, as its owner downloads it. */
async function recordBytes(token: string, uploadId: number): Promise<Buffer> {
  const answer = await fetchBytes(t.app, endpoints.downloadItems, {
    token,
    body: { uploadIdList: [uploadId] },
  });
  expect(answer.statusCode).toBe(200);
  return answer.rawPayload;
}

async function pixel(image: Buffer, x: number, y: number) {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return { r: data[at] as number, g: data[at + 1] as number, b: data[at + 2] as number };
}

const near = (actual: { r: number; g: number; b: number }, expected: { r: number; g: number; b: number }) =>
  Math.max(
    Math.abs(actual.r - expected.r),
    Math.abs(actual.g - expected.g),
    Math.abs(actual.b - expected.b),
  ) <= 12;

async function uploadIdOfOutput(articleId: number, kind: 'page' | 'slice', index: number): Promise<number> {
  const row = await t.database.db
    .selectFrom('composite_outputs')
    .select('upload_id')
    .where('article_id', '=', articleId)
    .where('kind', '=', kind)
    .where('slice_index', '=', index)
    .executeTakeFirstOrThrow();
  return Number(row.upload_id);
}

beforeAll(async () => {
  t = await createTestApp({}, { jobs: true });
  admin = await signInAdmin(t);
  templateId = await givenTemplate();
  // The completeness views the migration seeds name the codes: 正面 front, 侧面 side, 鞋底 sole, 细节 detail.
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('composition jobs', () => {
  it('renders a complete article into the target folder, names what others miss, and zips the outputs', async () => {
    const complete = 'AB1234-001';
    const noSole = uniqueName('NS');
    const unknown = uniqueName('UNKNOWN');
    const shots = await givenShots(admin, complete, {
      front: RED,
      side: GREEN,
      sole: BLUE,
      detail1: GREY,
      detail2: GREY,
    });
    await givenShots(admin, noSole, { front: RED, side: GREEN, detail1: GREY, detail2: GREY });
    const target = await givenFolder(t, admin);
    const tag = await givenTag(t);

    const plan = await call(t.app, endpoints.makerPlan, {
      token: admin,
      body: { templateId, artNums: [complete, noSole, unknown] },
    });
    expect(plan.articles.map((a) => a.complete)).toEqual([true, false, false]);
    expect(plan.unmatched).toEqual([unknown]);
    expect(plan.articles[0]?.chosen).toContainEqual({ slot: 'front', itemId: shots.front });

    // One article's slots: four detail cells would take detail1, detail2… in natural name order.
    const detail = await call(t.app, endpoints.makerArticle, {
      token: admin,
      body: { templateId, version: 1, artNum: complete },
    });
    expect(detail.slots.map((slot) => [slot.slot, slot.chosen])).toEqual([
      ['front', shots.front],
      ['side', shots.side],
      ['sole', shots.sole],
      ['detail:0', shots.detail1],
      ['detail:1', shots.detail2],
    ]);
    expect(detail.candidates).toHaveLength(5);
    expect(detail.fields).toBeNull();

    // Article numbers from a selected folder: those of the files in it.
    const shotsFolder = await t.database.db
      .selectFrom('items')
      .select('parent_id')
      .where('id', '=', shots.front as number)
      .executeTakeFirstOrThrow();
    const byFolder = await call(t.app, endpoints.makerPlan, {
      token: admin,
      body: { templateId, folderDataIdList: [shotsFolder.parent_id as number] },
    });
    expect(byFolder.articles.map((a) => a.artNum)).toEqual([complete]);

    const status = await compose(admin, [complete, noSole, unknown], target.id, { tagIdList: [tag.id] });
    expect(status.job.status).toBe('done');
    expect(status.job.percent).toBe(100);
    const [done, missing, none] = status.articles;
    expect(done?.status).toBe('done');
    expect(done?.pageHeight).toBe(800);
    expect(done?.sliceCount).toBeGreaterThanOrEqual(4);
    expect(missing?.status).toBe('missing');
    expect(missing?.missing).toEqual([
      { slot: 'sole', label: '鞋底', rule: { kind: 'view', code: 'sole' }, viewName: '鞋底' },
    ]);
    expect(none?.status).toBe('missing');
    expect(none?.missing.map((m) => m.slot)).toEqual(['front', 'side', 'sole', 'detail:0', 'detail:1']);

    // The outputs are files of the target folder with the article number and the tag.
    const files = await t.database.db
      .selectFrom('items')
      .select(['id', 'name', 'art_num', 'file_formats'])
      .where('parent_id', '=', target.id)
      .orderBy('name')
      .execute();
    expect(files.map((f) => f.name)).toEqual(
      Array.from(
        { length: (done?.sliceCount ?? 0) + 1 },
        (_, i) => `${complete}_详情页_${String(i).padStart(2, '0')}`,
      ),
    );
    expect(files.every((f) => f.art_num === complete && f.file_formats === 'jpg')).toBe(true);
    const tagged = await t.database.db
      .selectFrom('item_tags')
      .select('item_id')
      .where('tag_id', '=', tag.id)
      .where(
        'item_id',
        'in',
        files.map((f) => f.id),
      )
      .execute();
    expect(tagged).toHaveLength(files.length);

    // Thumbnails come from the media queue, as for uploads.
    const pageUpload = await uploadIdOfOutput(done?.id as number, 'page', 0);
    await t.jobs?.mediaDone(pageUpload);

    // The front slot's interior has the front shot's colour; the sole's, the sole's.
    const page = await recordBytes(admin, pageUpload);
    expect((await sharp(page).metadata()).width).toBe(WIDTH);
    expect(near(await pixel(page, 200, 100), RED)).toBe(true);
    expect(near(await pixel(page, 200, 500), BLUE)).toBe(true);

    // Completeness never counts an output as a view: its name ends in digits only.
    expect(files.every((f) => /_\d+$/.test(f.name))).toBe(true);

    // The zip: a folder per article, slices as wide as the template.
    const { url } = await call(t.app, endpoints.makerDownloadTicket, {
      token: admin,
      body: { jobId: status.job.id, include: 'slices' },
    });
    const zipped = await t.app.inject({ method: 'GET', url });
    expect(zipped.statusCode).toBe(200);
    const entries = await readZip(zipped.rawPayload);
    expect([...entries.keys()].sort()).toEqual(
      Array.from(
        { length: done?.sliceCount ?? 0 },
        (_, i) => `${complete}/${complete}_详情页_${String(i + 1).padStart(2, '0')}.jpg`,
      ),
    );
    const first = entries.get(`${complete}/${complete}_详情页_01.jpg`) as Buffer;
    const meta = await sharp(first).metadata();
    expect(meta.width).toBe(WIDTH);
    expect(meta.height).toBeLessThanOrEqual(300);

    // Rendering the missing article again once its sole is uploaded: done.
    await givenShots(admin, noSole, { sole: BLUE });
    const { jobId: retryId } = await call(t.app, endpoints.refreshUserSend, {
      token: admin,
      body: { jobId: status.job.id },
    });
    const retried = await finished(admin, retryId);
    expect(retried.job.retryOf).toBe(status.job.id);
    expect(retried.articles.map((a) => [a.artNum, a.status])).toEqual([
      [noSole, 'done'],
      [unknown, 'missing'],
    ]);
  }, 180_000);

  it('takes a swapped file, and a re-render joins its own outputs as versions but never a person’s file', async () => {
    const artNum = uniqueName('SW');
    const shots = await givenShots(admin, artNum, {
      front: RED,
      side: GREEN,
      sole: BLUE,
      detail1: GREY,
      detail2: GREY,
    });
    const target = await givenFolder(t, admin);
    // A person's own file with an output's name is never joined.
    await givenFiles(t, admin, [{ fileName: `${artNum}_详情页_00.jpg`, bytes: await solidJpeg(GREY) }], {
      targetFolderId: target.id,
    });
    const first = await compose(admin, [artNum], target.id);
    expect(first.articles[0]?.status).toBe('done');
    const names = async () =>
      (
        await t.database.db
          .selectFrom('items')
          .select('name')
          .where('parent_id', '=', target.id)
          .orderBy('name')
          .execute()
      ).map((r) => r.name);
    const before = await names();
    expect(before).toContain(`${artNum}_详情页_00`);
    expect(before).toContain(`${artNum}_详情页_00 (2)`);

    const swapped = await compose(admin, [artNum], target.id, {
      overrides: [{ artNum, slot: 'front', itemId: shots.side as number }],
    });
    const article = swapped.articles[0];
    expect(article?.status).toBe('done');
    // The same files, each with a new version.
    expect(await names()).toEqual(before);
    const page = await recordBytes(admin, await uploadIdOfOutput(article?.id as number, 'page', 0));
    expect(near(await pixel(page, 200, 100), GREEN)).toBe(true);
    const versions = await t.database.db
      .selectFrom('uploads')
      .innerJoin('items', 'items.id', 'uploads.item_id')
      .select('uploads.id')
      .where('items.parent_id', '=', target.id)
      .where('items.name', '=', `${artNum}_详情页_00 (2)`)
      .execute();
    expect(versions).toHaveLength(2);

    // A shorter page (version 2: the front alone, one slice): the earlier slices past it go to the
    // recycle bin.
    const shorter = templateSpecSchema.parse({ ...SPEC, blocks: [SPEC.blocks[0]] });
    await t.database.db
      .insertInto('composite_template_versions')
      .values({
        template_id: templateId,
        version: 2,
        spec: JSON.stringify(shorter),
        width: shorter.width,
        block_count: 1,
        slice_max_height: shorter.output.sliceMaxHeight,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const { jobId } = await call(t.app, endpoints.makerImage, {
      token: admin,
      body: { templateId, version: 2, artNums: [artNum], targetFolderId: target.id },
    });
    const short = await finished(admin, jobId);
    expect(short.articles[0]?.sliceCount).toBe(1);
    const live = await t.database.db
      .selectFrom('items')
      .select('name')
      .where('parent_id', '=', target.id)
      .where('state', '=', 1)
      .orderBy('name')
      .execute();
    expect(live.map((r) => r.name)).toEqual([
      `${artNum}_详情页_00`,
      `${artNum}_详情页_00 (2)`,
      `${artNum}_详情页_01`,
    ]);
  }, 180_000);

  it('uses no file the user may see but not download', async () => {
    const artNum = uniqueName('ND');
    const shared = await givenFolder(t, admin);
    await givenShots(admin, artNum, { front: RED }, shared.id);
    const user = await givenSignedInUser(t, { scopes: { view: 'all', upload: 'all', download: 'none' } });
    await givenShots(user.token, artNum, { side: GREEN, sole: BLUE, detail1: GREY, detail2: GREY });
    const plan = await call(t.app, endpoints.makerPlan, {
      token: user.token,
      body: { templateId, artNums: [artNum] },
    });
    expect(plan.articles[0]?.missing.map((m) => m.slot)).toEqual(['front']);
    const own = await givenFolder(t, user.token);
    const status = await compose(user.token, [artNum], own.id);
    expect(status.articles[0]?.status).toBe('missing');
    expect(status.articles[0]?.missing.map((m) => m.viewName)).toEqual(['正面']);
  }, 120_000);

  it('fails an article with a damaged source at once, naming the file', async () => {
    const artNum = uniqueName('DM');
    await givenShots(admin, artNum, { side: GREEN, sole: BLUE, detail1: GREY, detail2: GREY });
    await givenFiles(t, admin, [{ fileName: `${artNum}_front.jpg`, bytes: makeCorruptJpeg(), artNum }], {
      targetFolderId: (await givenFolder(t, admin)).id,
    });
    const status = await compose(admin, [artNum], (await givenFolder(t, admin)).id);
    expect(status.articles[0]?.status).toBe('failed');
    expect(status.articles[0]?.error).toContain(`${artNum}_front.jpg: damaged image`);
  }, 120_000);

  it('takes up an article left rendering by a crash, and warns of a swap no longer usable', async () => {
    const artNum = uniqueName('RE');
    await givenShots(admin, artNum, { front: RED, side: GREEN, sole: BLUE, detail1: GREY, detail2: GREY });
    const adminId = (
      await t.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', ADMIN.email)
        .executeTakeFirstOrThrow()
    ).id;
    const { jobId, articleIds } = await new MakerRepository(t.database.db, makerPeers).insertJob(
      {
        user_id: adminId,
        template_id: templateId,
        template_version: 1,
        target_folder_id: null,
        options: { tagIds: [], subfolderPerArticle: true },
        retry_of: null,
        created_at: new Date(),
      },
      [{ art_num: artNum, overrides: [{ slot: 'front', itemId: 2 ** 40 }] }],
    );
    // What a process that died mid-render leaves behind.
    await t.database.db
      .updateTable('composite_job_articles')
      .set({ status: 'rendering', attempts: 1 })
      .where('id', '=', articleIds[0] as number)
      .execute();
    await t.jobs?.enqueueComposite(articleIds, true);
    const status = await finished(admin, jobId);
    expect(status.articles[0]?.status).toBe('done');
    expect(status.articles[0]?.warnings).toContainEqual(
      expect.objectContaining({ code: 'overrideUnavailable', slot: 'front' }),
    );
    // A folder per article, at the top level.
    const folder = await t.database.db
      .selectFrom('items')
      .select(['id', 'parent_id'])
      .where('name', '=', artNum)
      .where('type', '=', ItemType.folder)
      .executeTakeFirstOrThrow();
    expect(folder.parent_id).toBeNull();
    const inside = await t.database.db
      .selectFrom('items')
      .select('name')
      .where('parent_id', '=', folder.id)
      .execute();
    expect(inside.map((r) => r.name)).toContain(`${artNum}_详情页_01`);
  }, 120_000);

  it('refuses a target the user may not upload into, and a fourth running job, creating nothing', async () => {
    const viewer = await givenSignedInUser(t, { scopes: { view: 'all', upload: 'none', download: 'all' } });
    const folder = await givenFolder(t, admin);
    const refused = await attempt(t.app, endpoints.makerImage, {
      token: viewer.token,
      body: { templateId, version: 1, artNums: ['X1'], targetFolderId: folder.id },
    });
    expect(refused.errorCode).toBe('SE_502');
    const jobsOf = async (userId: number) =>
      (await t.database.db.selectFrom('composite_jobs').select('id').where('user_id', '=', userId).execute())
        .length;
    expect(await jobsOf(viewer.id)).toBe(0);

    const busy = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
    const repo = new MakerRepository(t.database.db, makerPeers);
    for (let i = 0; i < 3; i++)
      await repo.insertJob(
        {
          user_id: busy.id,
          template_id: templateId,
          template_version: 1,
          target_folder_id: null,
          options: { tagIds: [], subfolderPerArticle: false },
          retry_of: null,
          created_at: new Date(),
        },
        [{ art_num: 'X1', overrides: [] }],
      );
    const tooMany = await attempt(t.app, endpoints.makerImage, {
      token: busy.token,
      body: { templateId, version: 1, artNums: ['X1'], targetFolderId: 'all' },
    });
    expect(tooMany.status).toBe(429);
    expect(tooMany.errorCode).toBe('SECP_04');
    expect(await jobsOf(busy.id)).toBe(3);

    // An archived template is not composed with.
    const archived = await givenTemplate(SPEC, 0);
    const gone = await attempt(t.app, endpoints.makerImage, {
      token: admin,
      body: { templateId: archived, version: 1, artNums: ['X1'], targetFolderId: 'all' },
    });
    expect(gone.errorCode).toBe('SECP_01');
  }, 60_000);

  it('cancels pending articles once and keeps jobs to their owner', async () => {
    const owner = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
    const other = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
    // Written without queueing its renders, so nothing takes an article meanwhile.
    const { jobId } = await new MakerRepository(t.database.db, makerPeers).insertJob(
      {
        user_id: owner.id,
        template_id: templateId,
        template_version: 1,
        target_folder_id: null,
        options: { tagIds: [], subfolderPerArticle: false },
        retry_of: null,
        created_at: new Date(),
      },
      [
        { art_num: 'C1', overrides: [] },
        { art_num: 'C2', overrides: [] },
      ],
    );
    const foreign = await attempt(t.app, endpoints.cancelMakerImage, { token: other.token, body: { jobId } });
    expect(foreign.errorCode).toBe('SECP_05');
    await call(t.app, endpoints.cancelMakerImage, { token: owner.token, body: { jobId } });
    await call(t.app, endpoints.cancelMakerImage, { token: owner.token, body: { jobId } });
    const status = await call(t.app, endpoints.checkMakerImageStatus, {
      token: owner.token,
      query: { jobId },
    });
    expect(status.job.status).toBe('cancelled');
    expect(status.articles.map((a) => a.status)).toEqual(['cancelled', 'cancelled']);
    expect(status.job.percent).toBe(100);
    const list = await call(t.app, endpoints.getUserSend, {
      token: owner.token,
      body: { pageNo: 1, pageSize: 10 },
    });
    expect(list.total).toBe(1);
    expect(list.list[0]?.id).toBe(jobId);
  });
});

describe('composition jobs: review fixes', () => {
  const adminIdOf = async () =>
    (
      await t.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', ADMIN.email)
        .executeTakeFirstOrThrow()
    ).id;
  const jobFor = (
    userId: number,
    artNums: string[],
    extra: { target?: number | null; options?: Record<string, unknown> } = {},
  ) =>
    new MakerRepository(t.database.db, makerPeers).insertJob(
      {
        user_id: userId,
        template_id: templateId,
        template_version: 1,
        target_folder_id: extra.target ?? null,
        options: { tagIds: [], subfolderPerArticle: false, ...extra.options },
        retry_of: null,
        created_at: new Date(),
      },
      artNums.map((art_num) => ({ art_num, overrides: [] })),
    );
  const articleRow = (id: number) =>
    t.database.db
      .selectFrom('composite_job_articles')
      .select(['status', 'error', 'attempts', 'slice_count', 'page_height'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('does not count jobs whose renders were lost with their worker, and cancel finishes them', async () => {
    const user = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
    const lostAt = new Date(t.clock.now().getTime() - 20 * 60_000);
    const jobs = [];
    for (let i = 0; i < 3; i++) {
      const job = await jobFor(user.id, ['L1']);
      await t.database.db
        .updateTable('composite_job_articles')
        .set({ status: 'rendering', attempts: 3, started_at: lostAt })
        .where('job_id', '=', job.jobId)
        .execute();
      jobs.push(job);
    }
    // Three running jobs, none with work left: a fourth starts.
    const started = await call(t.app, endpoints.makerImage, {
      token: user.token,
      body: { templateId, version: 1, artNums: ['L1'], targetFolderId: 'all' },
    });
    expect(started.jobId).toBeGreaterThan(0);
    await finished(user.token, started.jobId);

    // Cancelling a lost job fails its article and finishes it.
    const lost = jobs[0] as { jobId: number; articleIds: number[] };
    await call(t.app, endpoints.cancelMakerImage, { token: user.token, body: { jobId: lost.jobId } });
    const status = await call(t.app, endpoints.checkMakerImageStatus, {
      token: user.token,
      query: { jobId: lost.jobId },
    });
    expect(status.job.status).toBe('done');
    expect(status.articles[0]?.status).toBe('failed');
    expect(status.articles[0]?.error).toContain('worker was lost');

    // A render taken recently still counts: three of those refuse a fourth.
    const busy = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
    for (let i = 0; i < 3; i++) {
      const job = await jobFor(busy.id, ['L2']);
      await t.database.db
        .updateTable('composite_job_articles')
        .set({ status: 'rendering', attempts: 1, started_at: t.clock.now() })
        .where('job_id', '=', job.jobId)
        .execute();
    }
    const refused = await attempt(t.app, endpoints.makerImage, {
      token: busy.token,
      body: { templateId, version: 1, artNums: ['L2'], targetFolderId: 'all' },
    });
    expect(refused.errorCode).toBe('SECP_04');
  }, 120_000);

  it('fails the articles of a job whose renders could not be queued, so it does not stay running', async () => {
    const user = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
    const jobs = t.jobs as NonNullable<typeof t.jobs>;
    const enqueue = jobs.enqueueComposite;
    jobs.enqueueComposite = () => Promise.reject(new Error('queue down'));
    try {
      const failed = await attempt(t.app, endpoints.makerImage, {
        token: user.token,
        body: { templateId, version: 1, artNums: ['Q1', 'Q2'], targetFolderId: 'all' },
      });
      expect(failed.status).toBe(500);
    } finally {
      jobs.enqueueComposite = enqueue;
    }
    const list = await call(t.app, endpoints.getUserSend, {
      token: user.token,
      body: { pageNo: 1, pageSize: 10 },
    });
    expect(list.list[0]?.status).toBe('done');
    expect(list.list[0]?.counts.failed).toBe(2);
  }, 60_000);

  it('reads the article numbers of a selection by the distinct numbers of the files the viewer can see', async () => {
    const folder = await givenFolder(t, admin);
    const sub = await givenFolder(t, admin, { parentId: folder.id });
    const one = uniqueName('SELA');
    const two = uniqueName('SELB');
    await givenShots(admin, one, { front: RED, side: GREEN }, folder.id);
    await givenShots(admin, one.toLowerCase(), { sole: BLUE }, sub.id);
    await givenShots(admin, two, { front: RED }, sub.id);
    // A user who may see no file takes no number.
    const other = await givenSignedInUser(t, { scopes: { view: 'none', upload: 'all', download: 'all' } });
    const plan = await call(t.app, endpoints.makerPlan, {
      token: admin,
      body: { templateId, folderDataIdList: [folder.id] },
    });
    expect(plan.articles.map((a) => a.artNum)).toEqual([one, two]);

    // At most the limit asked for (a job's maximum + 1 tells "too many"), without reading records.
    const adminId = await adminIdOf();
    const repo = new MakerRepository(t.database.db, makerPeers);
    expect(await repo.artNumsUnder([folder.id], { userId: adminId, view: { kind: 'all' } }, 1)).toEqual([
      one,
    ]);
    expect(await repo.artNumsUnder([folder.id], { userId: other.id, view: { kind: 'none' } }, 10)).toEqual(
      [],
    );
  }, 120_000);

  it('fails an article whose target folder was purged, and refuses to render its job again', async () => {
    const adminId = await adminIdOf();
    // What ON DELETE SET NULL leaves of a job whose folder was purged.
    const { jobId, articleIds } = await jobFor(adminId, ['GONE1'], {
      target: null,
      options: { targetFolderId: 2 ** 30 },
    });
    await t.jobs?.enqueueComposite(articleIds, true);
    const status = await finished(admin, jobId);
    expect(status.articles[0]?.status).toBe('failed');
    expect(status.articles[0]?.error).toContain('target folder no longer exists');
    expect(
      await t.database.db.selectFrom('items').select('id').where('name', 'like', 'GONE1%').execute(),
    ).toEqual([]);
    const again = await attempt(t.app, endpoints.refreshUserSend, { token: admin, body: { jobId } });
    expect(again.errorCode).toBe('SE_400');
    expect(again.errorDesc).toContain('目标文件夹已不存在');
  }, 60_000);

  it('fails an article at once when the target went to the recycle bin (no retries)', async () => {
    const artNum = uniqueName('BIN');
    await givenShots(admin, artNum, { front: RED, side: GREEN, sole: BLUE, detail1: GREY, detail2: GREY });
    const target = await givenFolder(t, admin);
    await call(t.app, endpoints.deleteItems, { token: admin, body: { folderIdList: [target.id] } });
    const { jobId, articleIds } = await jobFor(await adminIdOf(), [artNum], {
      target: target.id,
      options: { targetFolderId: target.id },
    });
    await t.jobs?.enqueueComposite(articleIds, true);
    await finished(admin, jobId);
    const row = await articleRow(articleIds[0] as number);
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(1);
    expect(row.error).toMatch(/^SE(F_04|_404|_502) /);
  }, 120_000);

  it('fails an article whose number cannot be a folder name when a folder per article is asked for', async () => {
    const { jobId, articleIds } = await jobFor(await adminIdOf(), ['..', 'x.'], {
      options: { subfolderPerArticle: true, targetFolderId: null },
    });
    await t.jobs?.enqueueComposite(articleIds, true);
    const status = await finished(admin, jobId);
    expect(status.articles.map((a) => a.status)).toEqual(['failed', 'failed']);
    expect(status.articles[0]?.error).toContain('cannot be a folder name (dotName)');
    expect(status.articles[1]?.error).toContain('cannot be a folder name (edgeDot)');
  }, 60_000);

  it('finishes an article from the outputs a committed save left instead of saving a second version', async () => {
    const artNum = uniqueName('DUP');
    const target = await givenFolder(t, admin);
    const [itemId] = await givenFiles(
      t,
      admin,
      [{ fileName: `${artNum}_详情页_00.jpg`, bytes: await solidJpeg(GREY) }],
      {
        targetFolderId: target.id,
      },
    );
    const upload = await t.database.db
      .selectFrom('uploads')
      .select('id')
      .where('item_id', '=', itemId as number)
      .executeTakeFirstOrThrow();
    const { jobId, articleIds } = await jobFor(await adminIdOf(), [artNum], {
      target: target.id,
      options: { targetFolderId: target.id },
    });
    const articleId = articleIds[0] as number;
    await t.database.db
      .insertInto('composite_outputs')
      .values([
        {
          article_id: articleId,
          kind: 'page',
          slice_index: 0,
          item_id: itemId as number,
          upload_id: upload.id,
          name: 'p.jpg',
          width: 400,
          height: 800,
          bytes: 1,
        },
        {
          article_id: articleId,
          kind: 'slice',
          slice_index: 1,
          item_id: itemId as number,
          upload_id: upload.id,
          name: 's.jpg',
          width: 400,
          height: 300,
          bytes: 1,
        },
      ])
      .execute();
    await t.database.db
      .updateTable('composite_job_articles')
      .set({ status: 'rendering', attempts: 1 })
      .where('id', '=', articleId)
      .execute();
    await t.jobs?.enqueueComposite(articleIds, true);
    await finished(admin, jobId);
    const row = await articleRow(articleId);
    expect(row).toMatchObject({ status: 'done', slice_count: 1, page_height: 800 });
    const versions = await t.database.db
      .selectFrom('uploads')
      .select('id')
      .where('item_id', '=', itemId as number)
      .execute();
    expect(versions).toHaveLength(1);
  }, 60_000);

  it('leaves earlier slices alone when a render saves no slices, and never trashes a person’s file', async () => {
    const artNum = uniqueName('NOSL');
    await givenShots(admin, artNum, { front: RED, side: GREEN, sole: BLUE, detail1: GREY, detail2: GREY });
    const target = await givenFolder(t, admin);
    const first = await compose(admin, [artNum], target.id);
    const slices = first.articles[0]?.sliceCount ?? 0;
    expect(slices).toBeGreaterThanOrEqual(3);
    // A person's file that looks like a slice past any count.
    await givenFiles(t, admin, [{ fileName: `${artNum}_详情页_99.jpg`, bytes: await solidJpeg(GREY) }], {
      targetFolderId: target.id,
    });
    const pageOnly = await givenTemplate({ ...SPEC, output: { ...SPEC.output, slices: false } });
    const { jobId } = await call(t.app, endpoints.makerImage, {
      token: admin,
      body: { templateId: pageOnly, version: 1, artNums: [artNum], targetFolderId: target.id },
    });
    expect((await finished(admin, jobId)).articles[0]?.status).toBe('done');
    const live = async () =>
      (
        await t.database.db
          .selectFrom('items')
          .select('name')
          .where('parent_id', '=', target.id)
          .where('state', '=', 1)
          .execute()
      ).length;
    // The page, the earlier slices and the person's file.
    expect(await live()).toBe(slices + 2);

    // A shorter sliced render (front alone, one slice) trashes its own earlier slices 02… only.
    const shorter = await givenTemplate({
      ...SPEC,
      blocks: [SPEC.blocks[0] as (typeof SPEC.blocks)[number]],
    });
    const short = await call(t.app, endpoints.makerImage, {
      token: admin,
      body: { templateId: shorter, version: 1, artNums: [artNum], targetFolderId: target.id },
    });
    expect((await finished(admin, short.jobId)).articles[0]?.sliceCount).toBe(1);
    const names = (
      await t.database.db
        .selectFrom('items')
        .select('name')
        .where('parent_id', '=', target.id)
        .where('state', '=', 1)
        .orderBy('name')
        .execute()
    ).map((r) => r.name);
    expect(names).toEqual([`${artNum}_详情页_00`, `${artNum}_详情页_01`, `${artNum}_详情页_99`]);
  }, 180_000);
});

describe('composition queries use their indexes', () => {
  /** The plans (seq scans disallowed) of the queries `work` runs on a repository of the test database. */
  async function plansOf(work: (repo: MakerRepository) => Promise<unknown>): Promise<string[]> {
    const db = t.database.db;
    const compiled: CompiledQuery[] = [];
    const capture: KyselyPlugin = {
      transformQuery: (args) => {
        compiled.push(db.getExecutor().compileQuery(args.node, args.queryId));
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    await work(new MakerRepository(db.withPlugin(capture), makerPeers));
    const plans: string[] = [];
    await sql`SET enable_seqscan = off`.execute(db);
    try {
      for (const query of compiled) {
        const rows = await db.executeQuery<{ 'QUERY PLAN': string }>({
          ...query,
          sql: `EXPLAIN ${query.sql}`,
        } as CompiledQuery<{ 'QUERY PLAN': string }>);
        plans.push(rows.rows.map((r) => r['QUERY PLAN']).join('\n'));
      }
    } finally {
      await sql`RESET enable_seqscan`.execute(db);
    }
    return plans;
  }

  it('looks SKUs up by the index expression', async () => {
    const plans = await plansOf(async (repo) => {
      await repo.skuOf('AB1234');
      await repo.skusOf(['AB1234', 'cd5678']);
    });
    expect(plans).toHaveLength(2);
    for (const plan of plans) expect(plan).toContain('sku_art_num_key');
  });

  it('finds surplus slices by the name index, not by the job history', async () => {
    const [plan] = await plansOf((repo) =>
      repo.surplusSlices({ prefix: 'AB1234_详情页_', folderId: 1, sliceCount: 2, keepItemIds: [] }),
    );
    // Bounded by the name prefix (items_name_key) or by the folder (the listing indexes), as the
    // planner finds cheaper; never the job history.
    expect(plan).toMatch(/Index Cond: \(+(\(?lower\(\(?name|parent_id)/);
    expect(plan).not.toContain('Seq Scan on items');
    expect(plan).not.toContain('composite_job_articles');
  });
});
