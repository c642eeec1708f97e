import {
  BLOCK_LABEL_MAX_CHARS,
  type Block,
  type BlockType,
  COMPLETENESS_VIEW_CODE_MAX_CHARS,
  COMPLETENESS_VIEW_CODE_PATTERN,
  type FillRule,
  GRID_CELLS_MAX,
  JPEG_QUALITY_DEFAULT,
  JPEG_QUALITY_MAX,
  JPEG_QUALITY_MIN,
  normaliseViewCode,
  OUTPUT_STEM_DEFAULT,
  OUTPUT_STEM_MAX_CHARS,
  type Padding,
  SLICE_HEIGHT_DEFAULT,
  SLICE_HEIGHT_MAX,
  SLICE_HEIGHT_MIN,
  safeFileNamePart,
  TEMPLATE_BLOCKS_MAX,
  TEMPLATE_NAME_MAX_CHARS,
  TEMPLATE_WIDTH_MAX,
  TEMPLATE_WIDTH_MIN,
  TEXT_BLOCK_MAX_CHARS,
  TEXT_FIELDS,
  type TemplateFont,
  type TemplateSpec,
} from '@dam/contract';

/**
 * The template editor's state and the rules it checks before saving: the same limits as the
 * contract's `templateSpecSchema`, checked here without zod (the server checks again and its
 * refusal is shown under the same field: problems are keyed by the server's field paths,
 * `spec.blocks.2.text`).
 */

/** A fixed block whose banner is not chosen yet (ids are positive). */
export const NO_ASSET = 0;
/** The common width of the platforms' detail pages. */
export const DEFAULT_WIDTH = 790;

export interface TemplateDraft {
  name: string;
  status: 0 | 1;
  spec: TemplateSpec;
}

const ZERO_PADDING: Padding = { top: 0, right: 0, bottom: 0, left: 0 };

export function newDraft(): TemplateDraft {
  return {
    name: '',
    status: 1,
    spec: {
      width: DEFAULT_WIDTH,
      background: '#ffffff',
      blocks: [],
      output: {
        sliceMaxHeight: SLICE_HEIGHT_DEFAULT,
        quality: JPEG_QUALITY_DEFAULT,
        stem: OUTPUT_STEM_DEFAULT,
        page: true,
        slices: true,
        tagIds: [],
      },
    },
  };
}

/** A short id not used by `taken` (block ids name slots in swaps and results, so they stay put). */
export function newBlockId(taken: readonly string[], random: () => number = Math.random): string {
  for (;;) {
    const id = Math.floor(random() * 36 ** 6)
      .toString(36)
      .padStart(6, '0');
    if (!taken.includes(id)) return id;
  }
}

/** A new block of a type, with the defaults an author most often keeps. */
export function defaultBlock(type: BlockType, id: string, fontId = ''): Block {
  const fit = { fit: 'contain' as const, position: 'centre' as const, background: null };
  switch (type) {
    case 'image':
      return {
        id,
        type,
        label: '',
        rule: { kind: 'view', code: '' },
        required: true,
        height: null,
        padding: { ...ZERO_PADDING },
        ...fit,
      };
    case 'grid':
      return {
        id,
        type,
        label: '',
        columns: 2,
        cells: [
          { kind: 'nth', n: 1 },
          { kind: 'nth', n: 2 },
        ],
        cellHeight: null,
        gap: 10,
        required: 'all',
        padding: { ...ZERO_PADDING },
        ...fit,
      };
    case 'text':
      return {
        id,
        type,
        text: '{artNum} {name}',
        fontId,
        size: 32,
        colour: '#000000',
        bold: false,
        align: 'centre',
        verticalAlign: 'middle',
        lineSpacing: null,
        height: 100,
        padding: { top: 0, right: 20, bottom: 0, left: 20 },
        background: null,
      };
    case 'spacer':
      return { id, type, height: 40, colour: null };
    case 'fixed':
      return { id, type, label: '', assetId: NO_ASSET, height: null, padding: { ...ZERO_PADDING }, ...fit };
  }
}

export function addBlock(blocks: readonly Block[], type: BlockType, fontId = ''): Block[] {
  return [...blocks, defaultBlock(type, newBlockId(blocks.map((b) => b.id)), fontId)];
}

/** Moves a block up (-1) or down (+1); at either end nothing changes. */
export function moveBlock(blocks: readonly Block[], index: number, delta: -1 | 1): Block[] {
  const target = index + delta;
  if (index < 0 || index >= blocks.length || target < 0 || target >= blocks.length) return [...blocks];
  const next = [...blocks];
  [next[index], next[target]] = [next[target] as Block, next[index] as Block];
  return next;
}

/** A copy right below the original, with an id of its own. */
export function duplicateBlock(blocks: readonly Block[], index: number): Block[] {
  const original = blocks[index];
  if (!original) return [...blocks];
  const copy = { ...structuredClone(original), id: newBlockId(blocks.map((b) => b.id)) } as Block;
  return [...blocks.slice(0, index + 1), copy, ...blocks.slice(index + 1)];
}

export const removeBlock = (blocks: readonly Block[], index: number): Block[] =>
  blocks.filter((_, i) => i !== index);

export const replaceBlock = (blocks: readonly Block[], index: number, block: Block): Block[] =>
  blocks.map((b, i) => (i === index ? block : b));

/** What is sent: strings trimmed as the schema trims them, view codes lower-cased. */
export function draftToSpec(spec: TemplateSpec): TemplateSpec {
  const rule = (r: FillRule): FillRule =>
    r.kind === 'view' ? { kind: 'view', code: normaliseViewCode(r.code) } : r;
  return {
    ...spec,
    blocks: spec.blocks.map((block) => {
      if (block.type === 'image') return { ...block, label: block.label.trim(), rule: rule(block.rule) };
      if (block.type === 'grid') return { ...block, label: block.label.trim(), cells: block.cells.map(rule) };
      if (block.type === 'fixed') return { ...block, label: block.label.trim() };
      return block;
    }),
    output: { ...spec.output, stem: spec.output.stem.trim() },
  };
}

/** One thing wrong with the draft: where (the server's field path) and why (`composite.problem.*`). */
export interface DraftProblem {
  path: string;
  key: string;
  values?: Record<string, string | number>;
}

const COLOUR = /^#[0-9a-fA-F]{6}$/;

/** Everything the schema (and the server's font check) would refuse, in page order. */
export function draftProblems(draft: TemplateDraft, fonts?: readonly TemplateFont[]): DraftProblem[] {
  const problems: DraftProblem[] = [];
  const add = (path: string, key: string, values?: Record<string, string | number>) =>
    problems.push(values ? { path, key, values } : { path, key });
  const range = (path: string, value: number | null, min: number, max: number, nullable = false) => {
    if (value === null) {
      if (!nullable) add(path, 'required');
      return;
    }
    if (!Number.isInteger(value) || value < min || value > max) add(path, 'range', { min, max });
  };
  const colour = (path: string, value: string | null, nullable: boolean) => {
    if (value === null ? !nullable : !COLOUR.test(value)) add(path, 'colour');
  };
  const label = (path: string, value: string) => {
    if (value.trim().length > BLOCK_LABEL_MAX_CHARS) add(path, 'tooLong', { max: BLOCK_LABEL_MAX_CHARS });
  };
  const rule = (path: string, r: FillRule) => {
    if (r.kind === 'view') {
      const code = normaliseViewCode(r.code);
      if (!code) add(`${path}.code`, 'required');
      else if (code.length > COMPLETENESS_VIEW_CODE_MAX_CHARS)
        add(`${path}.code`, 'tooLong', { max: COMPLETENESS_VIEW_CODE_MAX_CHARS });
      else if (!COMPLETENESS_VIEW_CODE_PATTERN.test(code)) add(`${path}.code`, 'viewCode');
    } else if (r.kind === 'tag') {
      if (!(r.tagId > 0)) add(`${path}.tagId`, 'required');
    } else range(`${path}.n`, r.n, 1, 50);
  };
  const { spec } = draft;
  const name = draft.name.trim();
  if (!name) add('name', 'required');
  else if (name.length > TEMPLATE_NAME_MAX_CHARS) add('name', 'tooLong', { max: TEMPLATE_NAME_MAX_CHARS });
  range('spec.width', spec.width, TEMPLATE_WIDTH_MIN, TEMPLATE_WIDTH_MAX);
  colour('spec.background', spec.background, false);
  if (spec.blocks.length === 0) add('spec.blocks', 'noBlocks');
  if (spec.blocks.length > TEMPLATE_BLOCKS_MAX) add('spec.blocks', 'tooMany', { max: TEMPLATE_BLOCKS_MAX });
  const seen = new Set<string>();
  spec.blocks.forEach((block, index) => {
    const at = `spec.blocks.${index}`;
    if (seen.has(block.id)) add(`${at}.id`, 'duplicateId');
    seen.add(block.id);
    if ('padding' in block) {
      for (const side of ['top', 'right', 'bottom', 'left'] as const)
        range(`${at}.padding.${side}`, block.padding[side], 0, 400);
      if (block.padding.left + block.padding.right >= spec.width) add(`${at}.padding`, 'paddingTooWide');
    }
    if ('fit' in block) colour(`${at}.background`, block.background, true);
    switch (block.type) {
      case 'image':
        label(`${at}.label`, block.label);
        rule(`${at}.rule`, block.rule);
        range(`${at}.height`, block.height, 20, 4000, true);
        break;
      case 'grid':
        label(`${at}.label`, block.label);
        if (block.cells.length === 0) add(`${at}.cells`, 'required');
        if (block.cells.length > GRID_CELLS_MAX) add(`${at}.cells`, 'tooMany', { max: GRID_CELLS_MAX });
        block.cells.forEach((cell, i) => {
          rule(`${at}.cells.${i}`, cell);
        });
        range(`${at}.cellHeight`, block.cellHeight, 20, 2000, true);
        range(`${at}.gap`, block.gap, 0, 100);
        break;
      case 'text': {
        if (!block.text) add(`${at}.text`, 'required');
        else if (block.text.length > TEXT_BLOCK_MAX_CHARS)
          add(`${at}.text`, 'tooLong', { max: TEXT_BLOCK_MAX_CHARS });
        else {
          const unknown = unknownPlaceholders(block.text)[0];
          if (unknown) add(`${at}.text`, 'unknownPlaceholder', { placeholder: unknown, known: KNOWN_FIELDS });
        }
        if (!block.fontId) add(`${at}.fontId`, 'required');
        else if (fonts && !fonts.some((f) => f.id === block.fontId && f.available))
          add(`${at}.fontId`, 'fontMissing', { font: block.fontId });
        range(`${at}.size`, block.size, 8, 200);
        colour(`${at}.colour`, block.colour, false);
        range(`${at}.lineSpacing`, block.lineSpacing, 0, 200, true);
        range(`${at}.height`, block.height, 20, 2000);
        colour(`${at}.background`, block.background, true);
        break;
      }
      case 'spacer':
        range(`${at}.height`, block.height, 1, 2000);
        colour(`${at}.colour`, block.colour, true);
        break;
      case 'fixed':
        label(`${at}.label`, block.label);
        if (block.assetId === NO_ASSET) add(`${at}.assetId`, 'noAsset');
        range(`${at}.height`, block.height, 20, 4000, true);
        break;
    }
  });
  const { output } = spec;
  range('spec.output.sliceMaxHeight', output.sliceMaxHeight, SLICE_HEIGHT_MIN, SLICE_HEIGHT_MAX);
  range('spec.output.quality', output.quality, JPEG_QUALITY_MIN, JPEG_QUALITY_MAX);
  const stem = output.stem.trim();
  if (!stem) add('spec.output.stem', 'required');
  else if (stem.length > OUTPUT_STEM_MAX_CHARS)
    add('spec.output.stem', 'tooLong', { max: OUTPUT_STEM_MAX_CHARS });
  else {
    const char = [...stem].find((c) => safeFileNamePart(c) !== c);
    if (char) add('spec.output.stem', 'illegalChar', { char });
  }
  if (!output.page && !output.slices) add('spec.output.slices', 'pageOrSlices');
  if (output.tagIds.length > 20) add('spec.output.tagIds', 'tooMany', { max: 20 });
  return problems;
}

const KNOWN_FIELDS = TEXT_FIELDS.map((field) => `{${field}}`).join(' ');

/** The `{…}` of a text that name no field (as the contract's unknownTextPlaceholders, zod-free). */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(/\{([^{}]*)\}/g)]
    .map((match) => match[1] as string)
    .filter((name) => !(TEXT_FIELDS as readonly string[]).includes(name))
    .map((name) => `{${name}}`);
}

/** The index of the block a problem path names (`spec.blocks.3.text` → 3), or null. */
export function blockIndexOf(path: string): number | null {
  const match = /^spec\.blocks\.(\d+)(?:\.|$)/.exec(path);
  return match ? Number(match[1]) : null;
}

/**
 * The field a SE_400 refusal of a save names: the server words it "参数错误：spec.width: 不能小于 320"
 * (`{field}: {reason}` after the code's own words, which may end in ": " too: "Invalid request: "),
 * so the path is a field of the save request's body before ": ".
 */
export function refusedField(desc: string): { path: string; reason: string } | null {
  const match = /(?:^|[\s：:])((?:spec|name|status|id|baseVersion)(?:\.\w+)*): (.+)$/s.exec(desc);
  return match ? { path: match[1] as string, reason: (match[2] as string).trim() } : null;
}
