import { templateSpecSchema } from '@dam/contract';
import { describe, expect, it } from 'vitest';
import {
  addBlock,
  blockIndexOf,
  defaultBlock,
  draftProblems,
  draftToSpec,
  duplicateBlock,
  moveBlock,
  NO_ASSET,
  newBlockId,
  newDraft,
  refusedField,
  removeBlock,
  type TemplateDraft,
} from './templateDraft';

const FONTS = [
  { id: 'wqy-zenhei', family: 'WenQuanYi Zen Hei', cjk: true, bold: false, available: true },
  { id: 'noto', family: 'Noto Sans CJK SC', cjk: true, bold: true, available: false },
];

function sample(): TemplateDraft {
  const draft = newDraft();
  draft.name = '新品详情页';
  let blocks = addBlock([], 'text', 'wqy-zenhei');
  blocks = addBlock(blocks, 'image');
  blocks = addBlock(blocks, 'grid');
  blocks = addBlock(blocks, 'spacer');
  const image = blocks[1];
  if (image?.type === 'image')
    blocks[1] = { ...image, rule: { kind: 'view', code: ' Front ' }, label: ' 正面 ' };
  draft.spec.blocks = blocks;
  return draft;
}

describe('the template draft', () => {
  it('starts at 790 px with the contract’s output defaults and no blocks', () => {
    const draft = newDraft();
    expect(draft.spec.width).toBe(790);
    expect(draft.spec.output).toEqual({
      sliceMaxHeight: 1500,
      quality: 85,
      stem: '详情页',
      page: true,
      slices: true,
      tagIds: [],
    });
    expect(draftProblems(draft).map((p) => p.path)).toEqual(['name', 'spec.blocks']);
  });

  it('gives every block a short id of its own that the schema accepts', () => {
    const taken = ['aaaaaa'];
    let calls = 0;
    // The first draw collides with a taken id; the next one is used.
    const id = newBlockId(taken, () => (calls++ === 0 ? 0.2857 : 0.5));
    expect(id).toMatch(/^[a-z0-9]{1,12}$/);
    expect(taken).not.toContain(id);
    const blocks = sample().spec.blocks;
    expect(new Set(blocks.map((b) => b.id)).size).toBe(blocks.length);
    const copy = duplicateBlock(blocks, 1);
    expect(copy).toHaveLength(blocks.length + 1);
    expect(copy[2]?.type).toBe('image');
    expect(copy[2]?.id).not.toBe(copy[1]?.id);
  });

  it('moves, duplicates and removes blocks, and leaves the ends alone', () => {
    const blocks = sample().spec.blocks;
    const types = (list: typeof blocks) => list.map((b) => b.type);
    expect(types(moveBlock(blocks, 1, -1))).toEqual(['image', 'text', 'grid', 'spacer']);
    expect(types(moveBlock(blocks, 1, 1))).toEqual(['text', 'grid', 'image', 'spacer']);
    expect(types(moveBlock(blocks, 0, -1))).toEqual(types(blocks));
    expect(types(moveBlock(blocks, 3, 1))).toEqual(types(blocks));
    expect(types(removeBlock(blocks, 2))).toEqual(['text', 'image', 'spacer']);
  });

  it('turns into a spec the contract’s schema accepts unchanged', () => {
    const draft = sample();
    expect(draftProblems(draft, FONTS)).toEqual([]);
    const spec = draftToSpec(draft.spec);
    const image = spec.blocks[1];
    expect(image?.type === 'image' && image.rule).toEqual({ kind: 'view', code: 'front' });
    expect(image?.type === 'image' && image.label).toBe('正面');
    const parsed = templateSpecSchema.safeParse(spec);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(spec);
  });

  it('finds what the schema refuses, at the server’s field paths', () => {
    const draft = sample();
    draft.spec.width = 319;
    draft.spec.output.sliceMaxHeight = 199;
    draft.spec.output.page = false;
    draft.spec.output.slices = false;
    draft.spec.output.stem = 'a/b';
    const text = draft.spec.blocks[0];
    if (text?.type === 'text')
      draft.spec.blocks[0] = { ...text, text: '{artNum} {price}', fontId: 'noto', colour: 'red' };
    draft.spec.blocks.push(defaultBlock('fixed', 'banner'));
    const problems = draftProblems(draft, FONTS);
    expect(problems.map((p) => [p.path, p.key])).toEqual([
      ['spec.width', 'range'],
      ['spec.blocks.0.text', 'unknownPlaceholder'],
      ['spec.blocks.0.fontId', 'fontMissing'],
      ['spec.blocks.0.colour', 'colour'],
      ['spec.blocks.4.assetId', 'noAsset'],
      ['spec.output.sliceMaxHeight', 'range'],
      ['spec.output.stem', 'illegalChar'],
      ['spec.output.slices', 'pageOrSlices'],
    ]);
    expect(NO_ASSET).toBe(0);
    // Each one the schema refuses too.
    for (const path of [
      'width',
      'output.sliceMaxHeight',
      'output.stem',
      'output.slices',
      'blocks.0.text',
      'blocks.0.colour',
    ]) {
      const parsed = templateSpecSchema.safeParse(draftToSpec(draft.spec));
      expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toContain(path);
    }
  });

  it('reads the field of a server refusal and the block it belongs to', () => {
    expect(refusedField('参数错误：spec.output.sliceMaxHeight: 不能小于 200')).toEqual({
      path: 'spec.output.sliceMaxHeight',
      reason: '不能小于 200',
    });
    expect(refusedField('Invalid request: spec.blocks.3.fontId: the font wqy is not installed')?.path).toBe(
      'spec.blocks.3.fontId',
    );
    expect(refusedField('模板名称已存在')).toBeNull();
    expect(blockIndexOf('spec.blocks.3.fontId')).toBe(3);
    expect(blockIndexOf('spec.blocks')).toBeNull();
  });
});
