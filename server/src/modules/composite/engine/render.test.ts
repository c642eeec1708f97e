import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { layoutPage, sliceRanges, type TemplateSpecInput, templateSpecSchema } from '@dam/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeJpeg } from '../../../../test/fixtures';
import { ConfigError, loadConfig } from '../../../config';
import { type ComposeFonts, loadComposeFonts } from '../../media/fonts';
import { ImageWork } from '../../media/image-limits';
import { createPageRenderer, FontUnavailableError } from './render';
import { escapeMarkup, FILLED_TEXT_MAX_CHARS, renderText, TextTooLargeError } from './text';
import { PageTooLargeError, type RenderInput, type SlotSource } from './types';

const MB = 1024 * 1024;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-render-'));
afterAll(() => fsp.rm(dir, { recursive: true, force: true }));

let fonts: ComposeFonts;
let fontId: string;
let front: SlotSource;
let banner: string;
const images = new ImageWork({ maxPixels: 100_000_000, memoryBytes: 256 * MB });

beforeAll(async () => {
  fonts = await loadComposeFonts([]);
  // wqy-zenhei where setup-system.sh installed it; else Latin-only DejaVu (the CJK test is skipped then).
  fontId = fonts.get('wqy-zenhei')?.available ? 'wqy-zenhei' : 'dejavu-sans';
  const jpeg = path.join(dir, 'front.jpg');
  await fsp.writeFile(jpeg, await makeJpeg(1600, 1200));
  front = { itemId: 1, name: 'AB1234-001_front.jpg', file: jpeg, format: 'jpg' };
  banner = path.join(dir, 'banner.png');
  await sharp({ create: { width: 790, height: 300, channels: 3, background: '#ff0000' } })
    .png()
    .toFile(banner);
});

const specOf = (blocks: TemplateSpecInput['blocks'], sliceMaxHeight = 500) =>
  templateSpecSchema.parse({ width: 790, blocks, output: { sliceMaxHeight, quality: 85 } });

const testBlocks = (): TemplateSpecInput['blocks'] => [
  { id: 'banner', type: 'fixed', assetId: 1 },
  { id: 'title', type: 'text', text: '{artNum} 新品', fontId, size: 120, height: 160, align: 'centre' },
  { id: 'front', type: 'image', label: '正面', rule: { kind: 'view', code: 'front' } },
  { id: 'gap', type: 'spacer', height: 40, colour: '#00ff00' },
  { id: 'detail', type: 'grid', columns: 2, cells: [1, 2, 3, 4].map((n) => ({ kind: 'nth' as const, n })) },
];

let runs = 0;
async function inputOf(overrides: Partial<RenderInput> & Pick<RenderInput, 'spec'>): Promise<RenderInput> {
  const scratchDir = path.join(dir, `run-${++runs}`);
  await fsp.mkdir(scratchDir);
  return {
    fields: { artNum: 'AB1234' },
    sources: new Map(['front', 'detail:0', 'detail:1', 'detail:2', 'detail:3'].map((slot) => [slot, front])),
    assets: new Map([[1, banner]]),
    scratchDir,
    want: { page: true, slices: true },
    maxPageHeight: 30_000,
    ...overrides,
  };
}

/** The pixel at (x, y) as [r, g, b]. */
async function pixel(file: string, x: number, y: number): Promise<number[]> {
  const { data } = await sharp(file)
    .extract({ left: x, top: y, width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [...data.subarray(0, 3)];
}

const near = (actual: number[], expected: number[]) =>
  expect(
    actual.every((value, i) => Math.abs(value - (expected[i] as number)) <= 8),
    `${actual} ≈ ${expected}`,
  ).toBe(true);

describe('the page renderer', () => {
  const renderer = () => createPageRenderer({ images, fonts });

  it('renders a page and its slices: sizes, cuts, and the colours inside the blocks', async () => {
    const spec = specOf(testBlocks());
    const layout = layoutPage(spec, {
      slots: { front: { width: 1600, height: 1200 } },
      assets: { 1: { width: 790, height: 300 } },
    });
    // 300 banner + 160 text + round(790 × 1200 / 1600) = 593 image + 40 spacer + 2 × 395 grid rows.
    expect(layout.height).toBe(300 + 160 + 593 + 40 + 790);

    const started = performance.now();
    const page = await renderer().render(await inputOf({ spec }));
    const took = performance.now() - started;
    expect(took).toBeLessThan(20_000);

    expect(page).toMatchObject({ width: 790, height: layout.height, warnings: [] });
    const meta = await sharp(page.page?.file).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([790, layout.height, 'jpeg']);
    expect(page.page?.bytes).toBe(fs.statSync(page.page?.file as string).size);

    const ranges = sliceRanges(layout.height, layout.boundaries, 500);
    expect(page.slices.map(({ top, height }) => ({ top, height }))).toEqual(ranges);
    for (const slice of page.slices) {
      const sliceMeta = await sharp(slice.file).metadata();
      expect(sliceMeta.width).toBe(790);
      expect(sliceMeta.height).toBe(slice.height);
      expect(slice.height).toBeLessThanOrEqual(500);
    }
    expect(page.slices.reduce((sum, slice) => sum + slice.height, 0)).toBe(page.height);

    // Interiors only: JPEG rings at a block's edge (the banner's last row is (207,20,15) against (254,0,0)).
    near(await pixel(page.page?.file as string, 395, 150), [255, 0, 0]);
    const spacerY = 300 + 160 + 593 + 20;
    near(await pixel(page.page?.file as string, 395, spacerY), [0, 255, 0]);
    const slice = page.slices.find((s) => s.top <= spacerY && spacerY < s.top + s.height);
    near(await pixel(slice?.file as string, 395, spacerY - (slice?.top ?? 0)), [0, 255, 0]);
    // makeJpeg: a blue square in the middle of a red-brown field, in the front slot and in a grid cell.
    near(await pixel(page.page?.file as string, 395, 460 + 296), [29, 111, 216]);
    near(await pixel(page.page?.file as string, 20, 460 + 20), [200, 60, 40]);
    near(await pixel(page.page?.file as string, 197, 1093 + 197), [29, 111, 216]);

    // The text box holds ink.
    const { channels } = await sharp(page.page?.file)
      .extract({ left: 0, top: 300, width: 790, height: 160 })
      .stats();
    expect(Math.min(...channels.slice(0, 3).map((channel) => channel.min))).toBeLessThan(100);

    // Nothing of the work files is left beside the outputs.
    expect(fs.readdirSync(path.dirname(page.page?.file as string)).sort()).toEqual(
      ['page.jpg', ...page.slices.map((_, i) => `slice-0${i + 1}.jpg`)].sort(),
    );
  });

  it('writes only what the template asks for', async () => {
    const spec = specOf(testBlocks());
    const slicesOnly = await renderer().render(await inputOf({ spec, want: { page: false, slices: true } }));
    expect(slicesOnly.page).toBeNull();
    expect(slicesOnly.slices.length).toBeGreaterThan(1);
    const pageOnly = await renderer().render(await inputOf({ spec, want: { page: true, slices: false } }));
    expect(pageOnly.slices).toEqual([]);
    expect(pageOnly.page?.height).toBe(pageOnly.height);
  });

  it('shrinks text that does not fit its box, and warns of it and of empty fields', async () => {
    const spec = specOf([
      {
        id: 'long',
        type: 'text',
        text: `{name} ${'很长的一段商品描述文字 '.repeat(12)}`,
        fontId,
        size: 60,
        height: 100,
      },
      { id: 'short', type: 'text', text: 'OK', fontId, size: 30, height: 100 },
    ]);
    const page = await renderer().render(
      await inputOf({ spec, fields: null, want: { page: true, slices: false } }),
    );
    expect(page.warnings).toEqual([
      { code: 'emptyField', slot: 'long', detail: 'name' },
      { code: 'textShrunk', slot: 'long' },
    ]);
    expect(page.height).toBe(200);
  });

  it('warns of an enlarged source, and refuses a font that is not available', async () => {
    const spec = specOf([
      { id: 'front', type: 'image', rule: { kind: 'nth', n: 1 }, height: 2000, fit: 'cover' },
    ]);
    const page = await renderer().render(await inputOf({ spec, want: { page: true, slices: false } }));
    expect(page.warnings).toEqual([{ code: 'upscaled', slot: 'front', detail: front.name }]);

    const missingFont = specOf([
      { id: 't', type: 'text', text: 'x', fontId: 'no-such-font', size: 20, height: 40 },
    ]);
    await expect(renderer().render(await inputOf({ spec: missingFont }))).rejects.toBeInstanceOf(
      FontUnavailableError,
    );
  });

  it('fits the whole picture in a product slot by default, and fills it only when the template asks (issue 39 item 12)', async () => {
    // A 3:1 red bar (a shoe seen from the side) in square slots on a white page.
    const bar = path.join(dir, 'bar.png');
    await sharp({ create: { width: 900, height: 300, channels: 3, background: '#ff0000' } })
      .png()
      .toFile(bar);
    const sources = new Map([
      ['single', { ...front, file: bar, format: 'png' }],
      ['grid:0', { ...front, file: bar, format: 'png' }],
    ]);
    const blocks: TemplateSpecInput['blocks'] = [
      { id: 'single', type: 'image', rule: { kind: 'nth', n: 1 }, height: 790 },
      { id: 'grid', type: 'grid', columns: 2, cells: [{ kind: 'nth', n: 1 }], required: 'any' },
    ];
    const spec = templateSpecSchema.parse({ width: 790, background: '#ffffff', blocks });
    expect(spec.blocks.map((block) => 'fit' in block && block.fit)).toEqual(['contain', 'contain']);
    const page = await renderer().render(
      await inputOf({ spec, sources, want: { page: true, slices: false } }),
    );
    const file = page.page?.file as string;
    // The whole bar, 790 × 263 in the middle of the 790 × 790 slot: white above and below, red to both ends.
    near(await pixel(file, 395, 60), [255, 255, 255]);
    near(await pixel(file, 395, 730), [255, 255, 255]);
    near(await pixel(file, 395, 395), [255, 0, 0]);
    near(await pixel(file, 6, 395), [255, 0, 0]);
    near(await pixel(file, 783, 395), [255, 0, 0]);
    // A grid cell (395 × 395, below the slot) the same.
    near(await pixel(file, 197, 790 + 40), [255, 255, 255]);
    near(await pixel(file, 197, 790 + 197), [255, 0, 0]);

    // Asked for, cover fills the slot and cuts the bar's ends.
    const covered = templateSpecSchema.parse({
      width: 790,
      background: '#ffffff',
      blocks: [{ ...blocks[0], fit: 'cover' }],
    });
    const filled = await renderer().render(
      await inputOf({ spec: covered, sources, want: { page: true, slices: false } }),
    );
    near(await pixel(filled.page?.file as string, 395, 60), [255, 0, 0]);
  });

  it('refuses a page taller than the limit before decoding anything', async () => {
    const spec = specOf(testBlocks());
    await expect(renderer().render(await inputOf({ spec, maxPageHeight: 1000 }))).rejects.toEqual(
      new PageTooLargeError(1883, 1000),
    );
    // Its header is whole, its pixels are cut off: decoding it would fail, reading its size does not.
    const truncated = path.join(dir, 'truncated.jpg');
    await fsp.writeFile(truncated, (await fsp.readFile(front.file)).subarray(0, 2000));
    const tall = specOf([
      { id: 'a', type: 'image', rule: { kind: 'nth', n: 1 }, height: 4000 },
      { id: 'b', type: 'spacer', height: 2000 },
    ]);
    const sources = new Map([['a', { ...front, file: truncated }]]);
    await expect(
      renderer().render(await inputOf({ spec: tall, sources, maxPageHeight: 5000 })),
    ).rejects.toEqual(new PageTooLargeError(6000, 5000));
    // 2000 wide × 20,001 high is over PAGE_PIXELS_MAX (40 MP) though under the height limit.
    const wide = templateSpecSchema.parse({
      width: 2000,
      blocks: [
        { id: 'a', type: 'image', rule: { kind: 'nth', n: 1 }, height: 4000 },
        ...[1, 2, 3, 4].map((n) => ({ id: `s${n}`, type: 'spacer' as const, height: 2000 })),
        { id: 'b', type: 'image', rule: { kind: 'nth', n: 2 }, height: 4000 },
        ...[5, 6, 7, 8].map((n) => ({ id: `s${n}`, type: 'spacer' as const, height: 2000 })),
        { id: 'c', type: 'spacer', height: 1 },
      ],
    });
    await expect(
      renderer().render(await inputOf({ spec: wide, sources: new Map([['a', sources.get('a') ?? null]]) })),
    ).rejects.toEqual(new PageTooLargeError(24_001, 20_000));
  });

  it('previews a template without an article: scaled, one JPEG, empty slots as grey boxes', async () => {
    const spec = specOf(testBlocks());
    const page = await renderer().render(
      await inputOf({ spec, sources: new Map(), fields: null, previewWidth: 395 }),
    );
    // Unknown slots are square: 300 + 160 + 790 + 40 + 790.
    expect([page.width, page.height]).toEqual([790, 2080]);
    expect(page.slices).toEqual([]);
    const meta = await sharp(page.page?.file).metadata();
    expect([meta.width, meta.height]).toEqual([395, 1040]);
    // The front slot's corner is the placeholder grey, the banner still red.
    near(await pixel(page.page?.file as string, 10, 230 + 10), [230, 230, 230]);
    near(await pixel(page.page?.file as string, 197, 75), [255, 0, 0]);
  });
});

describe('text', () => {
  it('escapes what pango would read as markup', () => {
    expect(escapeMarkup('a < b & c > d <b>')).toBe('a &lt; b &amp; c &gt; d &lt;b&gt;');
  });

  it.skipIf(!fs.existsSync('/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc'))(
    'draws Chinese with the registry font, where a DejaVu-only fontconfig draws boxes',
    async () => {
      const font = fonts.get('wqy-zenhei');
      if (!font) throw new Error('wqy-zenhei not in the registry');
      const content = { x: 0, y: 0, w: 400, h: 200 };
      const style = {
        font,
        size: 100,
        colour: '#000000',
        bold: false,
        align: 'left' as const,
        verticalAlign: 'top' as const,
        lineSpacing: null,
      };
      const placed = await renderText('新品', style, content, path.join(dir, 'cjk.v'), images);
      const withFont = await sharp(placed.file).raw().toBuffer({ resolveWithObject: true });

      // A fresh process whose fontconfig knows DejaVu only, rendering without the registry's file.
      const config = path.join(dir, 'fonts.conf');
      await fsp.writeFile(
        config,
        `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>${dir}/fc-cache</cachedir></fontconfig>`,
      );
      const script = `require('sharp')({ text: { text: '新品', font: 'DejaVu Sans, 100', dpi: 72, rgba: true } })
        .raw().toBuffer({ resolveWithObject: true })
        .then(({ data, info }) => process.stdout.write(JSON.stringify({ width: info.width, height: info.height, data: data.toString('base64') })));`;
      const output = execFileSync(process.execPath, ['-e', script], {
        cwd: path.resolve(__dirname, '../../../..'),
        env: { ...process.env, FONTCONFIG_FILE: config },
        encoding: 'utf8',
      });
      const boxes = JSON.parse(output) as { width: number; height: number; data: string };
      expect(boxes.width).toBeGreaterThan(0);
      expect(
        boxes.width === withFont.info.width &&
          boxes.height === withFont.info.height &&
          Buffer.from(boxes.data, 'base64').equals(withFont.data),
      ).toBe(false);
      // Hex boxes are outlines: the registry's glyphs ink a different share of their box.
      const ink = (data: Buffer) =>
        data.filter((_, i) => i % 4 === 3 && data[i] !== undefined && (data[i] as number) > 128).length;
      expect(ink(withFont.data)).not.toBe(ink(Buffer.from(boxes.data, 'base64')));
    },
  );
});

describe('text within the image budget', () => {
  /** An ImageWork that records the cost of each piece of work (and can fail it as libvips would). */
  class RecordingWork extends ImageWork {
    costs: number[] = [];
    failWith: string | null = null;
    override async run<T>(cost: number, work: () => Promise<T>): Promise<T> {
      this.costs.push(cost);
      if (this.failWith) throw new Error(this.failWith);
      return super.run(cost, work);
    }
  }
  const style = () => {
    const font = fonts.get(fontId);
    if (!font) throw new Error(`${fontId} not in the registry`);
    return {
      font,
      size: 40,
      colour: '#000000',
      bold: false,
      align: 'left' as const,
      verticalAlign: 'top' as const,
      lineSpacing: null,
    };
  };

  it('draws text inside the image budget, at a cost at least its pixels', async () => {
    const work = new RecordingWork({ maxPixels: 100_000_000, memoryBytes: 256 * MB });
    const content = { x: 0, y: 0, w: 600, h: 200 };
    const placed = await renderText('新品 AB1234', style(), content, path.join(dir, 'budget.v'), work);
    expect(work.costs.length).toBeGreaterThanOrEqual(1);
    expect(work.costs[0]).toBeGreaterThanOrEqual(placed.width * placed.height * 4);
  });

  it('names a pango/cairo size failure as text too large (permanent, a 4xx in a preview)', async () => {
    const work = new RecordingWork({ maxPixels: 100_000_000, memoryBytes: 256 * MB });
    work.failWith =
      'text: invalid value (typically too big) for the size of the input (surface, rectangle, etc.)';
    const content = { x: 0, y: 0, w: 600, h: 200 };
    await expect(renderText('AB', style(), content, path.join(dir, 'big.v'), work)).rejects.toBeInstanceOf(
      TextTooLargeError,
    );
  });

  it('caps a text its placeholders made long, with a warning, and renders it', async () => {
    const spec = templateSpecSchema.parse({
      width: 2000,
      blocks: [{ id: 'long', type: 'text', text: '{name}'.repeat(83), fontId, size: 195, height: 2000 }],
      output: { sliceMaxHeight: 2000, quality: 85 },
    });
    const work = new RecordingWork({ maxPixels: 100_000_000, memoryBytes: 256 * MB });
    const page = await createPageRenderer({ images: work, fonts }).render(
      await inputOf({
        spec,
        fields: { name: '新品上市限量发售经典款式舒适透气轻便耐磨防滑加绒保暖款式' },
        sources: new Map(),
        assets: new Map(),
      }),
    );
    expect(page.height).toBe(2000);
    expect(page.warnings).toContainEqual({ code: 'textShrunk', slot: 'long', detail: 'truncated' });
    // No piece of text work was given more than the budget holds.
    expect(Math.max(...work.costs)).toBeLessThanOrEqual(256 * MB);
    expect(FILLED_TEXT_MAX_CHARS).toBe(2000);
  }, 60_000);
});

describe('COMPOSE_FONTS', () => {
  it('takes absolute font paths only (a relative one would depend on the working directory)', () => {
    expect(() => loadConfig({ COMPOSE_FONTS: '[{"id":"rel","file":"fonts/rel.ttf"}]' })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ COMPOSE_FONTS: '[{"id":"rel","file":"/fonts/a.ttf","boldFile":"b.ttf"}]' }),
    ).toThrow(/COMPOSE_FONTS/);
    expect(loadConfig({ COMPOSE_FONTS: '[{"id":"abs","file":"/fonts/abs.ttf"}]' }).COMPOSE_FONTS).toEqual([
      { id: 'abs', file: '/fonts/abs.ttf' },
    ]);
  });
});
