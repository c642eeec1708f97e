// The templates bench/composite.ts renders: its banner asset, the 10-block detail page and the
// tall page of many blocks (790 px wide, slices of at most 1500 px).
import type { TemplateSpecInput } from '@dam/contract';
import sharp from 'sharp';

/** The 8 views of an article: its source files are `<artNum>_<view>.jpg`. */
export const VIEWS = ['front', 'side', 'back', 'sole', 'detail1', 'detail2', 'detail3', 'detail4'] as const;
export const WIDTH = 790;

const padding = { top: 0, right: 0, bottom: 0, left: 0 };

/** The banner asset: a red strip with white text. */
export function bannerPng(): Promise<Buffer> {
  return sharp({
    create: { width: WIDTH, height: 300, channels: 3, background: '#c8102e' },
  })
    .composite([
      {
        input: { text: { text: '<span foreground="white">BENCH 新品上市</span>', dpi: 300, rgba: true } },
        gravity: 'centre',
      },
    ])
    .png()
    .toBuffer();
}

const text = (fontId: string, id: string, content: string, size: number, height: number) => ({
  id,
  type: 'text' as const,
  text: content,
  fontId,
  size,
  colour: '#222222',
  bold: false,
  align: 'centre' as const,
  verticalAlign: 'middle' as const,
  lineSpacing: null,
  height,
  padding: { top: 10, right: 40, bottom: 10, left: 40 },
  background: null,
});

const image = (id: string, code: string, label: string) => ({
  id,
  type: 'image' as const,
  label,
  rule: { kind: 'view' as const, code },
  required: true,
  height: null,
  padding,
  fit: 'cover' as const,
});

/**
 * The 10-block template: banner asset, 2 texts in `fontId`, 4 view slots, a 2×2 grid of detail
 * views, a 3×2 grid of nth rules, a spacer.
 */
export function tenBlockSpec(bannerId: number, fontId: string): TemplateSpecInput {
  return {
    width: WIDTH,
    blocks: [
      {
        id: 'banner',
        type: 'fixed',
        label: 'banner',
        assetId: bannerId,
        height: null,
        padding,
        fit: 'cover',
      },
      text(fontId, 'title', '{artNum} {name}', 40, 90),
      text(
        fontId,
        'intro',
        '{series} · {category} · {color} · {season}\n轻盈透气的网面鞋身，回弹缓震中底，适合日常跑步与通勤。',
        24,
        150,
      ),
      image('front', 'front', '正面'),
      image('side', 'side', '侧面'),
      image('back', 'back', '背面'),
      image('sole', 'sole', '鞋底'),
      {
        id: 'details',
        type: 'grid',
        label: '细节',
        columns: 2,
        cells: [1, 2, 3, 4].map(() => ({ kind: 'view' as const, code: 'detail' })),
        cellHeight: null,
        gap: 10,
        padding,
        fit: 'cover',
      },
      {
        id: 'all',
        type: 'grid',
        label: '全部',
        columns: 3,
        cells: [1, 2, 3, 4, 5, 6].map((n) => ({ kind: 'nth' as const, n })),
        cellHeight: null,
        gap: 6,
        required: 'any',
        padding: { top: 20, right: 20, bottom: 20, left: 20 },
        fit: 'cover',
      },
      { id: 'end', type: 'spacer', height: 40, colour: '#f5f5f5' },
    ],
    output: { sliceMaxHeight: 1500 },
  };
}

/** The blocks of the tall page: 790 × ~20000, 22 images of 800 px with a text after every fifth. */
export function tallPageBlocks(bannerId: number, fontId: string): TemplateSpecInput['blocks'] {
  const blocks: TemplateSpecInput['blocks'] = [
    { id: 'banner', type: 'fixed', label: 'banner', assetId: bannerId, height: null, padding, fit: 'cover' },
    text(fontId, 'title', '{artNum} {name}', 40, 90),
  ];
  for (let i = 0; i < 22; i++) {
    blocks.push({
      id: `img${i}`,
      type: 'image',
      label: `图${i + 1}`,
      rule: { kind: 'nth', n: (i % VIEWS.length) + 1 },
      required: true,
      height: 800,
      padding: { top: 10, right: 0, bottom: 10, left: 0 },
      fit: i % 3 === 0 ? 'contain' : 'cover',
    });
    if (i % 5 === 4) blocks.push(text(fontId, `txt${i}`, `卖点 ${i + 1}：{name} 细节展示`, 32, 120));
  }
  blocks.push(
    {
      id: 'grid',
      type: 'grid',
      label: '全部',
      columns: 3,
      cells: [1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({ kind: 'nth' as const, n })),
      cellHeight: null,
      gap: 6,
      padding,
      fit: 'cover',
    },
    { id: 'end', type: 'spacer', height: 60, colour: '#f5f5f5' },
  );
  return blocks;
}
