import { describe, expect, it } from 'vitest';
import { type TemplateSpecInput, templateSpecSchema } from './composite';
import {
  fillText,
  gridColumns,
  layoutPage,
  leastPageHeight,
  pageHeightLimit,
  sliceRanges,
  slotKeysOf,
  unfilledRequiredSlots,
} from './composite-layout';

const spec = (input: Partial<TemplateSpecInput> & Pick<TemplateSpecInput, 'blocks'>) =>
  templateSpecSchema.parse({ width: 790, ...input });

const pad = (top: number, right: number, bottom: number, left: number) => ({ top, right, bottom, left });

describe('layoutPage', () => {
  it('places every kind of block with its padding, top to bottom', () => {
    const layout = layoutPage(
      spec({
        blocks: [
          { id: 'banner', type: 'fixed', assetId: 1, height: null },
          {
            id: 'title',
            type: 'text',
            text: '{artNum}',
            fontId: 'wqy-zenhei',
            size: 40,
            height: 80,
            padding: pad(10, 20, 30, 40),
          },
          {
            id: 'front',
            type: 'image',
            rule: { kind: 'view', code: 'front' },
            height: null,
            padding: pad(0, 10, 0, 10),
          },
          { id: 'gap', type: 'spacer', height: 40, colour: '#00ff00' },
          { id: 'side', type: 'image', rule: { kind: 'view', code: 'side' }, height: 500 },
        ],
      }),
      {
        slots: { front: { width: 1000, height: 1500 }, side: { width: 10, height: 10 } },
        assets: { 1: { width: 1580, height: 600 } },
      },
    );
    expect(layout.boxes).toEqual([
      {
        blockId: 'banner',
        kind: 'fixed',
        x: 0,
        y: 0,
        w: 790,
        h: 300,
        content: { x: 0, y: 0, w: 790, h: 300 },
      },
      {
        blockId: 'title',
        kind: 'text',
        x: 0,
        y: 300,
        w: 790,
        h: 120,
        content: { x: 40, y: 310, w: 730, h: 80 },
      },
      // Auto height: round(770 × 1500 / 1000) = 1155.
      {
        blockId: 'front',
        kind: 'image',
        x: 0,
        y: 420,
        w: 790,
        h: 1155,
        content: { x: 10, y: 420, w: 770, h: 1155 },
      },
      {
        blockId: 'gap',
        kind: 'fill',
        x: 0,
        y: 1575,
        w: 790,
        h: 40,
        content: { x: 0, y: 1575, w: 790, h: 40 },
      },
      {
        blockId: 'side',
        kind: 'image',
        x: 0,
        y: 1615,
        w: 790,
        h: 500,
        content: { x: 0, y: 1615, w: 790, h: 500 },
      },
    ]);
    expect(layout).toMatchObject({
      width: 790,
      height: 2115,
      boundaries: [300, 420, 1575, 1615],
      skipped: [],
    });
  });

  it('lays a grid out with gaps, the remainder pixel in the last column, and cuts between its rows', () => {
    const layout = layoutPage(
      spec({
        width: 800,
        blocks: [
          {
            id: 'g',
            type: 'grid',
            columns: 3,
            cells: [1, 2, 3, 4].map((n) => ({ kind: 'nth' as const, n })),
            gap: 10,
            padding: pad(5, 3, 7, 2),
          },
        ],
      }),
    );
    // Content 795 wide: floor((795 − 20) / 3) = 258; the last column is 795 − 2 × 268 = 259.
    expect(gridColumns(795, 3, 10)).toEqual([
      { x: 0, w: 258 },
      { x: 268, w: 258 },
      { x: 536, w: 259 },
    ]);
    const cells = layout.boxes.map(({ cell, x, y, w, h }) => ({ cell, x, y, w, h }));
    expect(cells).toEqual([
      { cell: 0, x: 2, y: 5, w: 258, h: 258 },
      { cell: 1, x: 270, y: 5, w: 258, h: 258 },
      { cell: 2, x: 538, y: 5, w: 259, h: 258 },
      { cell: 3, x: 2, y: 273, w: 258, h: 258 },
    ]);
    expect(layout.height).toBe(5 + 258 + 10 + 258 + 7);
    expect(layout.boundaries).toEqual([273]);
  });

  it('uses a fixed cell height and a square default for an image whose size is not known', () => {
    const layout = layoutPage(
      spec({
        blocks: [
          { id: 'g', type: 'grid', columns: 2, cells: [{ kind: 'nth', n: 1 }], cellHeight: 100 },
          { id: 'a', type: 'image', rule: { kind: 'nth', n: 2 }, height: null },
        ],
      }),
    );
    expect(layout.boxes.map((box) => box.h)).toEqual([100, 790]);
    expect(layout.height).toBe(890);
  });

  it('skips an optional image without a file and a grid of required none without any, but keeps them when not known', () => {
    const blocks: TemplateSpecInput['blocks'] = [
      { id: 'a', type: 'image', rule: { kind: 'nth', n: 1 }, required: false, height: 300 },
      { id: 'b', type: 'image', rule: { kind: 'nth', n: 2 }, required: true, height: 300 },
      {
        id: 'g',
        type: 'grid',
        columns: 2,
        cells: [
          { kind: 'nth', n: 3 },
          { kind: 'nth', n: 4 },
        ],
        required: 'none',
      },
      { id: 's', type: 'spacer', height: 10 },
    ];
    const missing = layoutPage(spec({ blocks }), { slots: { a: null, b: null, 'g:0': null, 'g:1': null } });
    expect(missing.skipped).toEqual(['a', 'g']);
    expect(missing.boxes.map((box) => [box.blockId, box.y])).toEqual([
      ['b', 0],
      ['s', 300],
    ]);
    expect(missing.height).toBe(310);

    const oneCell = layoutPage(spec({ blocks }), {
      slots: { a: null, 'g:0': null, 'g:1': { width: 1, height: 1 } },
    });
    expect(oneCell.skipped).toEqual(['a']);

    const preview = layoutPage(spec({ blocks }));
    expect(preview.skipped).toEqual([]);
    expect(preview.height).toBe(300 + 300 + 395 + 10);
  });
});

describe('leastPageHeight', () => {
  it('counts what the template fixes, 1 px for an image that follows its picture, nothing for what may be left out', () => {
    const least = leastPageHeight(
      spec({
        blocks: [
          { id: 'gap', type: 'spacer', height: 40 },
          { id: 'front', type: 'image', rule: { kind: 'view', code: 'front' }, padding: pad(10, 0, 10, 0) },
          { id: 'side', type: 'image', rule: { kind: 'nth', n: 2 }, height: 500 },
          { id: 'extra', type: 'image', rule: { kind: 'nth', n: 3 }, required: false, height: 900 },
          { id: 'g', type: 'grid', columns: 2, cells: [{ kind: 'nth', n: 4 }], cellHeight: 300 },
          { id: 'opt', type: 'grid', columns: 2, cells: [{ kind: 'nth', n: 5 }], required: 'none' },
          { id: 'logo', type: 'fixed', assetId: 7 },
          { id: 'banner', type: 'fixed', assetId: 8 },
        ],
      }),
      { 7: { width: 790, height: 100 } },
    );
    expect(least).toBe(40 + (10 + 1 + 10) + 500 + 300 + 100 + 1);
  });

  it('takes the configured height or the pixel limit at the width, whichever is less', () => {
    expect(pageHeightLimit(790, 30_000)).toBe(30_000);
    expect(pageHeightLimit(2000, 30_000)).toBe(20_000);
  });
});

describe('sliceRanges', () => {
  const check = (height: number, ranges: { top: number; height: number }[], max: number) => {
    expect(ranges.reduce((sum, range) => sum + range.height, 0)).toBe(height);
    let top = 0;
    for (const range of ranges) {
      expect(range.top).toBe(top);
      expect(range.height).toBeGreaterThan(0);
      expect(range.height).toBeLessThanOrEqual(max);
      top += range.height;
    }
  };

  it('cuts at the last boundary past half a slice', () => {
    const ranges = sliceRanges(2000, [300, 700, 900, 1300, 1600], 1000);
    expect(ranges).toEqual([
      { top: 0, height: 900 },
      { top: 900, height: 700 },
      { top: 1600, height: 400 },
    ]);
    check(2000, ranges, 1000);
  });

  it('cuts hard through a block taller than a slice, and ignores boundaries too near the top', () => {
    const ranges = sliceRanges(2500, [100, 2400], 1000);
    expect(ranges).toEqual([
      { top: 0, height: 1000 },
      { top: 1000, height: 1000 },
      { top: 2000, height: 500 },
    ]);
    check(2500, ranges, 1000);
  });

  it('gives one slice for a short page and cuts exactly at max', () => {
    expect(sliceRanges(1000, [500], 1000)).toEqual([{ top: 0, height: 1000 }]);
    expect(sliceRanges(1001, [], 1000)).toEqual([
      { top: 0, height: 1000 },
      { top: 1000, height: 1 },
    ]);
    expect(sliceRanges(0, [], 1000)).toEqual([]);
  });

  it('keeps every slice within max over a real layout', () => {
    const layout = layoutPage(
      spec({
        blocks: [
          { id: 'a', type: 'image', rule: { kind: 'nth', n: 1 }, height: 1200 },
          {
            id: 'g',
            type: 'grid',
            columns: 2,
            cells: [1, 2, 3, 4, 5, 6].map((n) => ({ kind: 'nth' as const, n })),
            gap: 8,
          },
          { id: 'b', type: 'image', rule: { kind: 'nth', n: 7 }, height: 4000 },
        ],
        output: { sliceMaxHeight: 1500 },
      }),
    );
    const ranges = sliceRanges(layout.height, layout.boundaries, 1500);
    check(layout.height, ranges, 1500);
    // Cuts keep the 1200-px image and the grid whole; the 4000-px image is cut hard.
    expect(ranges.map((range) => range.top)).toEqual([0, 1200, 2389, 3889, 5389]);
  });
});

describe('fillText', () => {
  it('puts the fields in and names the empty ones once', () => {
    expect(
      fillText('{artNum} 新品 {name}/{color}/{name}', { artNum: 'AB1234-001', name: '', color: '黑' }),
    ).toEqual({
      text: 'AB1234-001 新品 /黑/',
      emptyFields: ['name'],
    });
  });

  it('leaves every field empty without a SKU row, and markup characters as they are', () => {
    expect(fillText('<b>{series}</b> & {season}', null)).toEqual({
      text: '<b></b> & ',
      emptyFields: ['series', 'season'],
    });
    expect(fillText('{unknown} {artNum}', { artNum: 'A<1>' }).text).toBe('{unknown} A<1>');
  });
});

describe('slots', () => {
  const template = spec({
    blocks: [
      { id: 'front', type: 'image', label: '正面', rule: { kind: 'view', code: 'front' } },
      { id: 'opt', type: 'image', rule: { kind: 'nth', n: 3 }, required: false },
      { id: 't', type: 'text', text: 'x', fontId: 'f', size: 20, height: 40 },
      {
        id: 'd',
        type: 'grid',
        label: '细节',
        columns: 2,
        cells: [
          { kind: 'tag', tagId: 5 },
          { kind: 'nth', n: 2 },
        ],
        required: 'any',
      },
    ],
  });

  it('lists every slot with its key, label, rule and requirement', () => {
    expect(slotKeysOf(template)).toEqual([
      {
        slot: 'front',
        blockId: 'front',
        label: '正面',
        rule: { kind: 'view', code: 'front' },
        required: true,
      },
      { slot: 'opt', blockId: 'opt', label: 'Image 3', rule: { kind: 'nth', n: 3 }, required: false },
      {
        slot: 'd:0',
        blockId: 'd',
        cell: 0,
        label: '细节 1',
        rule: { kind: 'tag', tagId: 5 },
        required: false,
        gridRequired: 'any',
      },
      {
        slot: 'd:1',
        blockId: 'd',
        cell: 1,
        label: '细节 2',
        rule: { kind: 'nth', n: 2 },
        required: false,
        gridRequired: 'any',
      },
    ]);
  });

  it("names an unlabelled slot by what it holds in the reader's language, never by its id", () => {
    const unlabelled = spec({
      blocks: [
        { id: 'oqpx7z', type: 'image', rule: { kind: 'view', code: 'front' } },
        { id: 'k2m9aa', type: 'image', rule: { kind: 'view', code: '正面' } },
        { id: 'zz81qq', type: 'image', rule: { kind: 'tag', tagId: 7 } },
        {
          id: 'g4h5j6',
          type: 'grid',
          columns: 3,
          cells: [
            { kind: 'view', code: 'detail' },
            { kind: 'view', code: 'detail' },
            { kind: 'nth', n: 2 },
          ],
        },
      ],
    });
    const names = { viewNames: new Map([['front', '正面']]), tagNames: new Map([[7, '鞋底']]) };
    expect(slotKeysOf(unlabelled, { lang: 'zh', ...names }).map((s) => s.label)).toEqual([
      '正面 图片',
      '正面 图片',
      '鞋底 标签图片',
      'detail 图片 1',
      'detail 图片 2',
      '第 2 张图片',
    ]);
    expect(slotKeysOf(unlabelled, { lang: 'en' }).map((s) => s.label)).toEqual([
      'Front image',
      '正面 image',
      '#7 tag image',
      'Detail image 1',
      'Detail image 2',
      'Image 2',
    ]);
    expect(unfilledRequiredSlots(unlabelled, () => false, { lang: 'en' })[5]?.label).toBe('Image 2');
  });

  it('names the slots that keep an article from rendering', () => {
    const unfilled = (filled: string[]) =>
      unfilledRequiredSlots(template, (slot) => filled.includes(slot)).map((s) => s.slot);
    expect(unfilled([])).toEqual(['front', 'd:0', 'd:1']);
    expect(unfilled(['front', 'd:1'])).toEqual([]);
  });
});

describe('templateSpecSchema', () => {
  const text = { id: 't', type: 'text', text: 'x', fontId: 'f', size: 20, height: 40 } as const;
  const problems = (input: unknown) => {
    const result = templateSpecSchema.safeParse(input);
    return result.success ? [] : result.error.issues.map((issue) => [issue.path.join('.'), issue.message]);
  };

  it('refuses no blocks, a width out of range, a short slice, unknown placeholders and duplicate ids', () => {
    expect(problems({ width: 790, blocks: [] })).toEqual([['blocks', 'required']]);
    expect(problems({ width: 319, blocks: [text] })[0]?.[0]).toBe('width');
    expect(problems({ width: 2001, blocks: [text] })[0]?.[0]).toBe('width');
    expect(problems({ width: 790, blocks: [text], output: { sliceMaxHeight: 199 } })[0]?.[0]).toBe(
      'output.sliceMaxHeight',
    );
    expect(problems({ width: 790, blocks: [{ ...text, text: '{price}' }] })).toEqual([
      ['blocks.0.text', 'unknownPlaceholder'],
    ]);
    expect(problems({ width: 790, blocks: [text, text] })).toEqual([['blocks.1.id', 'duplicateValue']]);
    expect(problems({ width: 790, blocks: [text] })).toEqual([]);
  });
});
