import zlib from 'node:zlib';
import {
  type EndpointBody,
  endpoints,
  FunctionCode,
  PREVIEW_WIDTH_MAX,
  TEMPLATE_ASSET_MAX_BYTES,
  type TemplateAsset,
  type TemplateSpecInput,
} from '@dam/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call, fetchBytes, resultOf } from '../../../test/call';
import {
  EVERY_SCOPE,
  givenFile,
  givenFiles,
  givenSignedInUser,
  signInAdmin,
  uniqueName,
} from '../../../test/factories';
import { makeJpeg, makePng, multipart } from '../../../test/fixtures';
import { createDriverApp, createTestApp, type TestApp } from '../../../test/harness';
import { PREVIEWS_PER_MINUTE } from './templates.service';

type SaveBody = EndpointBody<typeof endpoints.saveTemplate>;

/** A PNG that claims `width`×`height` pixels and holds none: enough for a header check. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(16))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A font this server has not got: known to the registry (COMPOSE_FONTS), its file absent. */
const GONE_FONT = 'gone-font';

/**
 * Detail-page templates (issue 16, plan §7 "Templates") through the HTTP API on a real database:
 * saving (a new version only when the spec changed), renaming, archiving, deleting, the lists for
 * everyone and for managers (function code 9), the conflicts SECP_02 and SECP_06, refusals that
 * change nothing, fixed images (uploaded or copied from a file the caller may download), and the
 * exact preview with its rate limit.
 */
describe('detail-page templates', () => {
  let t: TestApp;
  let admin: string;
  /** Signed in with every file permission and no function code. */
  let plain: { id: number; token: string };
  /** Function code 9; may see every file but download none but their own. */
  let designer: { id: number; token: string };
  let font: string;

  const textBlock = (id = 'title') => ({
    id,
    type: 'text' as const,
    text: '{artNum} 新品',
    fontId: font,
    size: 40,
    height: 100,
  });
  const specOf = (extra: Partial<TemplateSpecInput> = {}): TemplateSpecInput => ({
    width: 790,
    blocks: [
      textBlock(),
      { id: 'front', type: 'image', label: '正面', rule: { kind: 'view', code: 'front' }, height: 600 },
      { id: 'gap', type: 'spacer', height: 40, colour: '#00ff00' },
    ],
    ...extra,
  });
  const save = (token: string, body: SaveBody) => call(t.app, endpoints.saveTemplate, { token, body });
  const trySave = (token: string, body: unknown) => attempt(t.app, endpoints.saveTemplate, { token, body });
  const detail = (token: string, id: number, version?: number) =>
    call(t.app, endpoints.templateDetail, { token, query: { id, ...(version ? { version } : {}) } });
  const list = (token: string, manage = false) =>
    call(t.app, endpoints.templateList, { token, query: { manage: manage ? 1 : 0 } });
  /** Rows of the template tables, to show a refusal changed nothing. */
  const counts = async () => {
    const count = async (table: 'composite_templates' | 'composite_template_versions' | 'composite_assets') =>
      Number(
        (
          await t.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      templates: await count('composite_templates'),
      versions: await count('composite_template_versions'),
      assets: await count('composite_assets'),
    };
  };
  const logEntries = async (code: string, name: string) =>
    t.database.db
      .selectFrom('operation_logs')
      .select(['operator_id', 'new_value', 'details'])
      .where('operator_code', '=', code)
      .where('new_value', '=', name)
      .execute();
  const uploadAsset = (token: string, bytes: Buffer, fileName = 'banner.png', field = 'file') => {
    const form = multipart([{ name: field, filename: fileName, content: bytes }]);
    return t.app.inject({
      method: 'POST',
      url: endpoints.uploadTemplateAsset.path,
      headers: { token, 'content-type': form.contentType },
      payload: form.payload,
    });
  };
  const preview = (token: string, body: unknown) =>
    fetchBytes(t.app, endpoints.previewTemplate, { token, body });

  beforeAll(async () => {
    t = await createTestApp({
      LOGIN_RATE_LIMIT: '1000',
      COMPOSE_FONTS: JSON.stringify([{ id: GONE_FONT, file: '/nonexistent/gone-font.ttf' }]),
    });
    admin = await signInAdmin(t);
    plain = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
    designer = await givenSignedInUser(t, {
      functionCodes: [FunctionCode.template],
      scopes: { view: 'all', upload: 'all', download: 'none', share: 'none' },
    });
    const fonts = await call(t.app, endpoints.templateFonts, { token: plain.token });
    expect(fonts.find((f) => f.id === GONE_FONT)).toMatchObject({ available: false });
    const available = fonts.find((f) => f.available);
    if (!available) throw new Error('no font is available on this machine (install fonts-dejavu-core)');
    font = available.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('saves a template, and a new version only when its spec changed', async () => {
    const name = uniqueName('Shoes');
    const created = await save(admin, { name, spec: specOf() });
    expect(created.version).toBe(1);
    expect(await logEntries('TPL01', name)).toHaveLength(1);

    // The same spec (with the defaults spelled out, in another key order) is no change.
    const opened = await detail(admin, created.id);
    const again = await save(admin, {
      id: created.id,
      baseVersion: 1,
      name,
      status: 1,
      spec: Object.fromEntries(Object.entries(opened.spec).reverse()) as TemplateSpecInput,
    });
    expect(again).toEqual({ id: created.id, version: 1 });
    expect(await logEntries('TPL02', name)).toHaveLength(0);

    const changed = specOf({ width: 750 });
    const second = await save(admin, { id: created.id, baseVersion: 1, name, spec: changed });
    expect(second.version).toBe(2);
    const tpl02 = await logEntries('TPL02', name);
    expect(tpl02).toHaveLength(1);
    expect(tpl02[0]?.details).toMatchObject({ templateId: created.id, version: 2, changed: ['spec'] });

    const current = await detail(plain.token, created.id);
    expect(current.version).toBe(2);
    expect(current.spec.width).toBe(750);
    expect(current.template).toMatchObject({
      name,
      currentVersion: 2,
      width: 750,
      status: 1,
      missingFonts: [],
    });
    expect(current.template.blockTypes).toEqual(['text', 'image', 'spacer']);
    expect(current.versions.map((v) => v.version)).toEqual([2, 1]);
    // Versions are immutable: the first is still there as it was.
    expect((await detail(plain.token, created.id, 1)).spec.width).toBe(790);
    const bad = await attempt(t.app, endpoints.templateDetail, {
      token: admin,
      query: { id: created.id, version: 9 },
    });
    expect(bad.errorCode).toBe('SE_400');
  });

  it('renames and archives in place; archived templates are listed to managers only', async () => {
    const name = uniqueName('Boots');
    const created = await save(admin, { name, spec: specOf() });
    const renamed = `${name}-new`;
    expect(await save(admin, { id: created.id, baseVersion: 1, name: renamed, spec: specOf() })).toEqual({
      id: created.id,
      version: 1,
    });
    expect((await list(plain.token)).find((s) => s.id === created.id)?.name).toBe(renamed);
    expect(await logEntries('TPL02', renamed)).toHaveLength(1);

    await save(designer.token, { id: created.id, baseVersion: 1, name: renamed, status: 0, spec: specOf() });
    expect((await list(plain.token)).some((s) => s.id === created.id)).toBe(false);
    expect((await list(designer.token, true)).find((s) => s.id === created.id)).toMatchObject({
      status: 0,
      currentVersion: 1,
    });
    // An archived template is not opened for composing …
    const closed = await attempt(t.app, endpoints.templateDetail, {
      token: plain.token,
      query: { id: created.id },
    });
    expect(closed.errorCode).toBe('SECP_01');
    // … but by a manager, to bring it back.
    expect((await detail(designer.token, created.id)).template.status).toBe(0);
    const refused = await attempt(t.app, endpoints.templateList, {
      token: plain.token,
      query: { manage: 1 },
    });
    expect(refused.errorCode).toBe('SE_502');
  });

  it('deletes softly and idempotently; the name is free again', async () => {
    const name = uniqueName('Sandals');
    const created = await save(admin, { name, spec: specOf() });
    expect(
      (await attempt(t.app, endpoints.deleteTemplate, { token: plain.token, body: { id: created.id } }))
        .errorCode,
    ).toBe('SE_502');
    await call(t.app, endpoints.deleteTemplate, { token: admin, body: { id: created.id } });
    await call(t.app, endpoints.deleteTemplate, { token: admin, body: { id: created.id } });
    expect(await logEntries('TPL03', name)).toHaveLength(1);
    expect((await list(admin, true)).some((s) => s.id === created.id)).toBe(false);
    expect(
      (await attempt(t.app, endpoints.templateDetail, { token: admin, query: { id: created.id } })).errorCode,
    ).toBe('SECP_01');
    const saveDeleted = await trySave(admin, { id: created.id, baseVersion: 1, name, spec: specOf() });
    expect(saveDeleted.errorCode).toBe('SECP_01');
    // The row stays (jobs keep their version), marked deleted.
    const row = await t.database.db
      .selectFrom('composite_templates')
      .select('deleted_at')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect((await save(admin, { name, spec: specOf() })).id).not.toBe(created.id);
  });

  it('refuses managing without function code 9 (SE_502), changing nothing', async () => {
    const before = await counts();
    expect((await trySave(plain.token, { name: uniqueName('X'), spec: specOf() })).errorCode).toBe('SE_502');
    const upload = await uploadAsset(plain.token, await makePng(100, 50));
    expect(upload.statusCode).toBe(403);
    expect(upload.json()).toMatchObject({ errorCode: 'SE_502' });
    const file = await givenFile(t, plain.token, {
      fileName: `${uniqueName('b')}.jpg`,
      bytes: await makeJpeg(300, 100),
    });
    expect(
      (
        await attempt(t.app, endpoints.templateAssetFromFile, {
          token: plain.token,
          body: { folderDataId: file.id },
        })
      ).errorCode,
    ).toBe('SE_502');
    const draft = await preview(plain.token, { spec: specOf() });
    expect((draft.json() as { errorCode: string }).errorCode).toBe('SE_502');
    expect(await counts()).toEqual(before);
  });

  it('refuses a name taken without regard to case (SECP_02), also when two saves race', async () => {
    const name = uniqueName('Taken');
    const first = await save(admin, { name, spec: specOf() });
    const before = await counts();
    expect((await trySave(admin, { name: name.toUpperCase(), spec: specOf() })).errorCode).toBe('SECP_02');
    const other = await save(admin, { name: uniqueName('Other'), spec: specOf() });
    const afterOther = await counts();
    expect(
      (
        await trySave(admin, {
          id: other.id,
          baseVersion: 1,
          name: ` ${name.toLowerCase()} `,
          spec: specOf({ width: 700 }),
        })
      ).errorCode,
    ).toBe('SECP_02');
    expect(await counts()).toEqual(afterOther);
    expect(afterOther.templates).toBe(before.templates + 1);
    expect((await detail(admin, other.id)).version).toBe(1);
    expect(first.version).toBe(1);

    // Two creations of one new name at once: one wins, the other is SECP_02, not a 500.
    const racing = uniqueName('Race');
    const results = await Promise.all([0, 1, 2].map(() => trySave(admin, { name: racing, spec: specOf() })));
    expect(results.filter((r) => r.success)).toHaveLength(1);
    expect(results.filter((r) => !r.success).map((r) => r.errorCode)).toEqual(['SECP_02', 'SECP_02']);
  });

  it('refuses a save from an outdated version (SECP_06), also when two saves race', async () => {
    const name = uniqueName('Conflict');
    const created = await save(admin, { name, spec: specOf() });
    await save(admin, { id: created.id, baseVersion: 1, name, spec: specOf({ width: 700 }) });
    const before = await counts();
    const stale = await trySave(designer.token, {
      id: created.id,
      baseVersion: 1,
      name,
      spec: specOf({ width: 600 }),
    });
    expect(stale.errorCode).toBe('SECP_06');
    expect(await counts()).toEqual(before);
    expect((await detail(admin, created.id)).spec.width).toBe(700);

    const results = await Promise.all(
      [650, 660, 670].map((width) =>
        trySave(admin, { id: created.id, baseVersion: 2, name, spec: specOf({ width }) }),
      ),
    );
    expect(results.filter((r) => r.success).map((r) => r.result?.version)).toEqual([3]);
    expect(results.filter((r) => !r.success).map((r) => r.errorCode)).toEqual(['SECP_06', 'SECP_06']);
    expect((await detail(admin, created.id)).versions).toHaveLength(3);
  });

  it('answers each bad input with the field that is wrong, and saves nothing', async () => {
    const existing = await save(admin, { name: uniqueName('Kept'), spec: specOf() });
    const cases: Array<[unknown, string, string]> = [
      [{ name: uniqueName('B'), spec: specOf({ blocks: [] }) }, 'SE_400', 'spec.blocks'],
      [{ name: uniqueName('B'), spec: specOf({ width: 319 }) }, 'SE_400', 'spec.width'],
      [{ name: uniqueName('B'), spec: specOf({ width: 2001 }) }, 'SE_400', 'spec.width'],
      [
        { name: uniqueName('B'), spec: specOf({ output: { sliceMaxHeight: 199 } }) },
        'SE_400',
        'spec.output.sliceMaxHeight',
      ],
      [{ name: uniqueName('B'), spec: specOf({ background: 'red' }) }, 'SE_400', 'spec.background'],
      [
        { name: uniqueName('B'), spec: specOf({ blocks: [textBlock('a'), textBlock('a')] }) },
        'SE_400',
        'spec.blocks.1.id',
      ],
      [
        { name: uniqueName('B'), spec: specOf({ blocks: [{ ...textBlock(), fontId: 'no-such-font' }] }) },
        'SE_400',
        'spec.blocks.0.fontId',
      ],
      [
        { name: uniqueName('B'), spec: specOf({ blocks: [{ ...textBlock(), fontId: GONE_FONT }] }) },
        'SE_400',
        'spec.blocks.0.fontId',
      ],
      [
        {
          name: uniqueName('B'),
          spec: specOf({ blocks: [{ id: 'logo', type: 'fixed', assetId: 2_000_000_000 }] }),
        },
        'SE_400',
        'spec.blocks.0.assetId',
      ],
      [
        {
          name: uniqueName('B'),
          spec: specOf({ blocks: [{ id: 'x', type: 'image', rule: { kind: 'tag', tagId: 2_000_000_000 } }] }),
        },
        'SE_400',
        'spec.blocks.0.rule.tagId',
      ],
      [{ name: '   ', spec: specOf() }, 'SE_400', 'name'],
      [{ id: existing.id, name: uniqueName('B'), spec: specOf({ width: 700 }) }, 'SE_400', 'baseVersion'],
      [{ id: 2_000_000_000, baseVersion: 1, name: uniqueName('B'), spec: specOf() }, 'SECP_01', ''],
    ];
    const before = await counts();
    for (const [body, code, field] of cases) {
      const answer = await trySave(admin, body);
      expect(answer.errorCode, JSON.stringify(body)).toBe(code);
      if (field) expect(answer.errorDesc, JSON.stringify(body)).toContain(`${field}:`);
    }
    const unknownFont = await trySave(admin, cases[6]?.[0]);
    expect(unknownFont.errorDesc).toContain('no-such-font');
    expect(await counts()).toEqual(before);
    expect((await detail(admin, existing.id)).version).toBe(1);
  });

  it('refuses at save a template too tall for any article (SECP_07 naming the limit), saving nothing', async () => {
    const spacers = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ id: `s${i}`, type: 'spacer' as const, height: 2000 }));
    const existing = await save(admin, { name: uniqueName('Tall'), spec: specOf() });
    const before = await counts();
    // 50 spacers of 2,000 px: 100,000 px against the page height of 30,000 (COMPOSE_MAX_PAGE_HEIGHT).
    const tall = { name: uniqueName('Tall'), spec: specOf({ blocks: spacers(50) }) };
    for (const [lang, message] of [
      ['zh', '页面过高：无论放入什么图片都至少 100,000 像素高，最多 30,000 像素'],
      ['en', 'The page is too tall: at least 100,000 px whatever images fill it, at most 30,000 px'],
    ] as const) {
      const refused = await attempt(t.app, endpoints.saveTemplate, { token: admin, lang, body: tall });
      expect(refused).toMatchObject({ status: 422, errorCode: 'SECP_07', errorDesc: message });
    }
    // At 2,000 px wide the pixel limit (40 MP) is the lower one: 20,000 px.
    const wide = await trySave(admin, {
      name: uniqueName('Wide'),
      spec: specOf({ width: 2000, blocks: spacers(11) }),
    });
    expect(wide).toMatchObject({ status: 422, errorCode: 'SECP_07' });
    expect(wide.errorDesc).toContain('22,000');
    expect(wide.errorDesc).toContain('20,000');
    // A new version of a saved template, too.
    const grown = await trySave(admin, {
      id: existing.id,
      baseVersion: existing.version,
      name: uniqueName('Tall'),
      spec: specOf({ blocks: spacers(16) }),
    });
    expect(grown).toMatchObject({ status: 422, errorCode: 'SECP_07' });
    expect(await counts()).toEqual(before);
    expect((await detail(admin, existing.id)).version).toBe(existing.version);

    // Tall only by its images (40 whose height follows the picture, an optional grid): saved, as an
    // article with flat pictures renders it.
    const images = Array.from({ length: 40 }, (_, i) => ({
      id: `i${i}`,
      type: 'image' as const,
      rule: { kind: 'nth' as const, n: i + 1 },
    }));
    const grid = {
      id: 'grid',
      type: 'grid' as const,
      columns: 2 as const,
      cells: Array.from({ length: 12 }, (_, i) => ({ kind: 'nth' as const, n: i + 1 })),
      cellHeight: 2000,
      required: 'none' as const,
    };
    await save(admin, { name: uniqueName('Images'), spec: specOf({ blocks: [...images, grid] }) });
  });

  it('stores an uploaded PNG as a fixed image, at most 2000 px wide, and names it in the detail', async () => {
    const answer = await uploadAsset(designer.token, await makePng(3000, 600));
    expect(answer.statusCode).toBe(200);
    const asset = resultOf(endpoints.uploadTemplateAsset, answer.json() as never) as TemplateAsset;
    expect(asset).toMatchObject({ width: 2000, height: 400 });
    const row = await t.database.db
      .selectFrom('composite_assets')
      .selectAll()
      .where('id', '=', asset.id)
      .executeTakeFirstOrThrow();
    expect(row.storage_key).toMatch(/^composite-assets\/[0-9a-f-]{36}\.png$/);
    expect(row).toMatchObject({ created_by: designer.id, source_item_id: null });

    const name = uniqueName('Banner');
    const saved = await save(designer.token, {
      name,
      spec: specOf({ blocks: [{ id: 'logo', type: 'fixed', assetId: asset.id }, textBlock()] }),
    });
    const opened = await detail(plain.token, saved.id);
    expect(opened.assets.map((a) => a.id)).toEqual([asset.id]);
    const image = await t.app.inject({ method: 'GET', url: opened.assets[0]?.url as string });
    expect(image.statusCode).toBe(200);
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({
      format: 'png',
      width: 2000,
      height: 400,
    });

    // A WebP and a JPEG are taken too.
    const webp = await sharp(await makePng(400, 100))
      .webp()
      .toBuffer();
    expect((await uploadAsset(designer.token, webp, 'b.webp')).statusCode).toBe(200);
    expect((await uploadAsset(designer.token, await makeJpeg(400, 100), 'b.jpg')).statusCode).toBe(200);
  });

  it('refuses SVG, other files, cut-off uploads and files over the size limit, storing nothing', async () => {
    const before = await counts();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    const refusals = [
      await uploadAsset(designer.token, svg, 'logo.svg'),
      await uploadAsset(designer.token, Buffer.from('<?xml version="1.0"?><svg/>'), 'logo.png'),
      await uploadAsset(designer.token, Buffer.from('GIF89a not really'), 'x.gif'),
      // A PNG signature and nothing of an image after it.
      await uploadAsset(designer.token, Buffer.concat([(await makePng(50, 50)).subarray(0, 40)]), 'cut.png'),
      await uploadAsset(designer.token, await makePng(50, 50), 'x.png', 'other'),
    ];
    for (const refused of refusals) {
      expect(refused.statusCode).toBe(400);
      expect((refused.json() as { errorCode: string }).errorCode).toBe('SE_400');
    }
    // More pixels than a page may hold: refused from its header, before any decoding.
    const huge = await uploadAsset(designer.token, pngHeaderOnly(8000, 5001), 'huge.png');
    expect(huge.statusCode).toBe(422);
    expect(huge.json()).toMatchObject({ errorCode: 'SEDL_04' });
    const big = Buffer.alloc(TEMPLATE_ASSET_MAX_BYTES + 1, 0);
    (await makePng(10, 10)).copy(big);
    const over = await uploadAsset(designer.token, big, 'huge.png');
    expect(over.statusCode).toBe(400);
    expect((over.json() as { errorDesc: string }).errorDesc).toContain('file:');
    const json = await attempt(t.app, endpoints.uploadTemplateAsset, {
      token: designer.token,
      body: { file: 'x' },
    });
    expect(json.errorCode).toBe('SE_400');
    expect(await counts()).toEqual(before);
  });

  it('copies a file as a fixed image only for a caller who may download it', async () => {
    const [own] = await givenFiles(t, admin, [
      { fileName: `${uniqueName('banner')}.jpg`, bytes: await makeJpeg(900, 300) },
    ]);
    const before = await counts();
    // The designer sees the administrator's shared file but may not download it.
    const refused = await attempt(t.app, endpoints.templateAssetFromFile, {
      token: designer.token,
      body: { folderDataId: own as number },
    });
    expect(refused.errorCode).toBe('SE_502');
    const unknown = await attempt(t.app, endpoints.templateAssetFromFile, {
      token: admin,
      body: { folderDataId: 9_000_000_000 },
    });
    expect(unknown.errorCode).toBe('SE_404');
    const text = await givenFile(t, admin, { fileName: `${uniqueName('notes')}.txt` });
    const notImage = await attempt(t.app, endpoints.templateAssetFromFile, {
      token: admin,
      body: { folderDataId: text.id },
    });
    expect(notImage.errorCode).toBe('SE_400');
    expect(await counts()).toEqual(before);

    const asset = await call(t.app, endpoints.templateAssetFromFile, {
      token: admin,
      body: { folderDataId: own as number },
    });
    expect(asset).toMatchObject({ width: 900, height: 300 });
    const row = await t.database.db
      .selectFrom('composite_assets')
      .select(['source_item_id', 'storage_key'])
      .where('id', '=', asset.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.source_item_id)).toBe(own);
    // A designer's own file may be copied: downloading one's own needs no permission.
    const [mine] = await givenFiles(t, designer.token, [
      { fileName: `${uniqueName('mine')}.png`, bytes: await makePng(300, 100) },
    ]);
    expect(
      await call(t.app, endpoints.templateAssetFromFile, {
        token: designer.token,
        body: { folderDataId: mine as number },
      }),
    ).toMatchObject({ width: 300, height: 100 });
  });

  it('lets a copied image into a draft only for a caller who may download its file, or already in the template', async () => {
    const [own] = await givenFiles(t, admin, [
      { fileName: `${uniqueName('banner')}.jpg`, bytes: await makeJpeg(600, 200) },
    ]);
    const copied = await call(t.app, endpoints.templateAssetFromFile, {
      token: admin,
      body: { folderDataId: own as number },
    });
    const uploaded = (await uploadAsset(designer.token, await makePng(300, 100))).json() as {
      result: { id: number };
    };
    const withAsset = (assetId: number) =>
      specOf({ blocks: [{ id: 'banner', type: 'fixed', assetId }, textBlock()] });

    // An uploaded image is any designer's; a copy of a file the designer may not download is not.
    await save(designer.token, { name: uniqueName('Uploaded'), spec: withAsset(uploaded.result.id) });
    const before = await counts();
    const refused = await trySave(designer.token, { name: uniqueName('Copied'), spec: withAsset(copied.id) });
    expect(refused.errorCode).toBe('SE_400');
    expect(refused.errorDesc).toContain('spec.blocks.0.assetId:');
    expect(await counts()).toEqual(before);
    const previewRefused = await preview(designer.token, { spec: withAsset(copied.id) });
    expect(previewRefused.statusCode).toBe(400);

    // Once someone allowed put it in a template, the designer may keep it there and preview it.
    const name = uniqueName('Banner');
    const saved = await save(admin, { name, spec: withAsset(copied.id) });
    const edited = withAsset(copied.id);
    edited.background = '#fafafa';
    const again = await save(designer.token, {
      id: saved.id,
      baseVersion: saved.version,
      name,
      spec: edited,
    });
    expect(again.version).toBe(saved.version + 1);
    const previewed = await preview(designer.token, { spec: edited, templateId: saved.id });
    expect(previewed.statusCode).toBe(200);
  });

  it('previews a draft or a saved version as a JPEG at most 800 px wide', async () => {
    const draft = await preview(admin, { spec: specOf({ width: 1200 }) });
    expect(draft.statusCode).toBe(200);
    expect(draft.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(draft.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBe(PREVIEW_WIDTH_MAX);

    const saved = await save(admin, { name: uniqueName('Preview'), spec: specOf() });
    const user = await givenSignedInUser(t, { scopes: EVERY_SCOPE });
    const ofSaved = await preview(user.token, { templateId: saved.id });
    expect(ofSaved.statusCode).toBe(200);
    const savedMeta = await sharp(ofSaved.rawPayload).metadata();
    expect(savedMeta.width).toBeLessThanOrEqual(PREVIEW_WIDTH_MAX);
    expect(savedMeta.width).toBe(790);
    // The spacer (#00ff00, 40 px under a 100 px text and a 600 px slot) at its centre.
    const { data, info } = await sharp(ofSaved.rawPayload).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => {
      const offset = (y * info.width + x) * info.channels;
      return [data[offset], data[offset + 1], data[offset + 2]];
    };
    const [r, g, b] = at(395, 720) as number[];
    expect(r).toBeLessThan(30);
    expect(g).toBeGreaterThan(220);
    expect(b).toBeLessThan(30);

    const missingFont = await preview(admin, {
      spec: specOf({ blocks: [{ ...textBlock(), fontId: GONE_FONT }] }),
    });
    expect(missingFont.statusCode).toBe(409);
    expect(missingFont.json()).toMatchObject({ errorCode: 'SECP_03' });
    expect((missingFont.json() as { errorDesc: string }).errorDesc).toContain(GONE_FONT);

    const spacers = Array.from({ length: 16 }, (_, i) => ({
      id: `s${i}`,
      type: 'spacer' as const,
      height: 2000,
    }));
    const tall = await preview(admin, { spec: specOf({ blocks: spacers }) });
    expect(tall.statusCode).toBe(422);
    expect(tall.json()).toMatchObject({ errorCode: 'SECP_07' });

    const unknown = await preview(user.token, { templateId: 2_000_000_000 });
    expect(unknown.json()).toMatchObject({ errorCode: 'SECP_01' });
    const neither = await preview(user.token, { artNum: 'X1' });
    expect(neither.json()).toMatchObject({ errorCode: 'SE_400' });
  });

  it('fills a preview from an article’s files the caller may download', async () => {
    const artNum = `PV${Math.floor(Math.random() * 900_000) + 100_000}-01`;
    const red = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#ff0000' } })
      .jpeg()
      .toBuffer();
    await givenFiles(t, admin, [{ fileName: `${artNum}_front.jpg`, bytes: red, artNum }]);
    const answer = await preview(admin, { spec: specOf(), artNum });
    expect(answer.statusCode).toBe(200);
    const { data, info } = await sharp(answer.rawPayload).raw().toBuffer({ resolveWithObject: true });
    // The middle of the front slot (y 100–700).
    const offset = (400 * info.width + 395) * info.channels;
    expect(data[offset]).toBeGreaterThan(220);
    expect(data[offset + 1]).toBeLessThan(40);
  });

  it(`allows ${PREVIEWS_PER_MINUTE} previews a minute per person (SE_429 beyond)`, async () => {
    const user = await givenSignedInUser(t, { functionCodes: [FunctionCode.template] });
    t.clock.advance(60_000 - (t.clock.now().getTime() % 60_000));
    // Refused previews count too: each asked for a render. A missing font is refused after counting.
    const cheap = { spec: specOf({ blocks: [{ ...textBlock(), fontId: GONE_FONT }] }) };
    for (let i = 0; i < PREVIEWS_PER_MINUTE; i++)
      expect((await preview(user.token, cheap)).json()).toMatchObject({ errorCode: 'SECP_03' });
    const over = await preview(user.token, { spec: specOf() });
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    // Another person is not held back.
    expect((await preview(admin, { spec: specOf() })).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await preview(user.token, { spec: specOf() })).statusCode).toBe(200);
  });
});

/** The same on S3: fixed images are written to the store, copied from it to preview and to copy a file. */
describe('detail-page templates on S3 storage', () => {
  let t: TestApp & { token: string };

  beforeAll(async () => {
    t = await createDriverApp('s3');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores fixed images in the bucket and renders previews from them', async () => {
    const fonts = await call(t.app, endpoints.templateFonts, { token: t.token });
    const font = fonts.find((f) => f.available)?.id as string;
    const form = multipart([
      {
        name: 'file',
        filename: 'red.png',
        content: await sharp({ create: { width: 790, height: 200, channels: 3, background: '#ff0000' } })
          .png()
          .toBuffer(),
      },
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: endpoints.uploadTemplateAsset.path,
      headers: { token: t.token, 'content-type': form.contentType },
      payload: form.payload,
    });
    expect(uploaded.statusCode).toBe(200);
    const banner = resultOf(endpoints.uploadTemplateAsset, uploaded.json() as never) as TemplateAsset;
    expect(banner.url).toMatch(/^http/);

    const [file] = await givenFiles(t, t.token, [
      { fileName: `${uniqueName('blue')}.jpg`, bytes: await makeJpeg(790, 100) },
    ]);
    const copied = await call(t.app, endpoints.templateAssetFromFile, {
      token: t.token,
      body: { folderDataId: file as number },
    });
    expect(copied).toMatchObject({ width: 790, height: 100 });

    const spec: TemplateSpecInput = {
      width: 790,
      blocks: [
        { id: 'banner', type: 'fixed', assetId: banner.id },
        { id: 'strip', type: 'fixed', assetId: copied.id },
        { id: 'title', type: 'text', text: '{artNum}', fontId: font, size: 30, height: 60 },
      ],
    };
    const saved = await call(t.app, endpoints.saveTemplate, {
      token: t.token,
      body: { name: uniqueName('S3'), spec },
    });
    const answer = await fetchBytes(t.app, endpoints.previewTemplate, {
      token: t.token,
      body: { templateId: saved.id },
    });
    expect(answer.statusCode).toBe(200);
    const { data, info } = await sharp(answer.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect(info.height).toBe(360);
    const offset = (100 * info.width + 395) * info.channels;
    expect(data[offset]).toBeGreaterThan(220);
    expect(data[offset + 1]).toBeLessThan(40);
  });
});
