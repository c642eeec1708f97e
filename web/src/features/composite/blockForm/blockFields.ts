import { type Block, type BlockType, TEXT_FIELDS } from '@dam/contract';

/** Where a field's problem is shown: its text by problem path (`spec.blocks.2.text`). */
export type ProblemTexts = ReadonlyMap<string, string>;

/** How a field is edited; `BlockFieldInput` renders each kind. */
export type BlockFieldKind =
  | 'input'
  | 'textarea'
  | 'pixels'
  | 'colour'
  | 'buttons'
  | 'select'
  | 'columns'
  | 'font'
  | 'rule'
  | 'cells'
  | 'asset'
  | 'padding'
  | 'checkbox'
  | 'ruleProblem';

/**
 * One row of a block's form. The form shows the rows whose `types` hold the block's type, in this
 * order; `key` is the block's property and the last part of its problem path.
 */
export interface BlockField {
  key: string;
  kind: BlockFieldKind;
  types: readonly BlockType[];
  /** The label's i18n key (a checkbox's text). */
  labelKey?: string;
  /** Values for the label (the cell count of a grid). */
  labelValues?: (block: Block) => Record<string, unknown>;
  /** Shown only when this holds. */
  when?: (block: Block) => boolean;
  /** The hint under the input: its i18n key and values. */
  hint?: { key: string; values?: Record<string, unknown> };
  /** Pixels: the bounds; a non-nullable field emptied takes `min`. */
  min?: number;
  max?: number;
  /** Pixels: empty is "automatic"; colour: may be cleared (the page's background then). */
  nullable?: boolean;
  /** A colour that may not be cleared takes this when it is. */
  fallback?: string;
  /** Buttons and selects: the modes, labelled `<modeLabelKey>.<mode>`. */
  modes?: readonly string[];
  modeLabelKey?: string;
  maxLength?: number;
  testId?: string;
  /** Consecutive rows of one group sit side by side. */
  group?: string;
}

const FITTED: readonly BlockType[] = ['image', 'grid', 'fixed'];
const LABELLED: readonly BlockType[] = ['image', 'grid', 'fixed'];
/** The placeholders a text block may use, as its hint lists them. */
const PLACEHOLDERS = TEXT_FIELDS.map((name) => `{${name}}`).join(' ');

/** Every field of every block type, in the order the form shows them. */
export const BLOCK_FIELDS: readonly BlockField[] = [
  {
    key: 'label',
    kind: 'input',
    types: LABELLED,
    labelKey: 'composite.editor.label',
    maxLength: 40,
    testId: 'block-label',
  },
  { key: 'rule', kind: 'rule', types: ['image'], labelKey: 'composite.editor.rule' },
  { key: 'rule', kind: 'ruleProblem', types: ['image'] },
  { key: 'required', kind: 'checkbox', types: ['image'], labelKey: 'composite.editor.required' },
  { key: 'columns', kind: 'columns', types: ['grid'], labelKey: 'composite.editor.columns' },
  {
    key: 'cells',
    kind: 'cells',
    types: ['grid'],
    labelKey: 'composite.editor.cells',
    labelValues: (block) => ({ count: block.type === 'grid' ? block.cells.length : 0 }),
  },
  {
    key: 'required',
    kind: 'select',
    types: ['grid'],
    labelKey: 'composite.editor.gridRequired',
    modes: ['all', 'any', 'none'],
    modeLabelKey: 'composite.editor.gridRequiredMode',
  },
  {
    key: 'cellHeight',
    kind: 'pixels',
    types: ['grid'],
    labelKey: 'composite.editor.cellHeight',
    nullable: true,
    min: 20,
    max: 2000,
    hint: { key: 'composite.editor.squareHint' },
  },
  { key: 'gap', kind: 'pixels', types: ['grid'], labelKey: 'composite.editor.gap', min: 0, max: 100 },
  { key: 'assetId', kind: 'asset', types: ['fixed'], labelKey: 'composite.editor.asset' },
  // An image or banner block's height: empty follows its picture's aspect ratio.
  {
    key: 'height',
    kind: 'pixels',
    types: ['image', 'fixed'],
    labelKey: 'composite.editor.height',
    nullable: true,
    min: 20,
    max: 4000,
    testId: 'block-height',
    hint: { key: 'composite.editor.autoHeightHint' },
  },
  {
    key: 'text',
    kind: 'textarea',
    types: ['text'],
    labelKey: 'composite.editor.text',
    maxLength: 500,
    testId: 'block-text',
    hint: { key: 'composite.editor.placeholders', values: { fields: PLACEHOLDERS } },
  },
  { key: 'fontId', kind: 'font', types: ['text'], labelKey: 'composite.editor.font' },
  {
    key: 'size',
    kind: 'pixels',
    types: ['text'],
    labelKey: 'composite.editor.size',
    min: 8,
    max: 200,
    testId: 'block-size',
    group: 'type',
  },
  {
    key: 'lineSpacing',
    kind: 'pixels',
    types: ['text'],
    labelKey: 'composite.editor.lineSpacing',
    nullable: true,
    min: 0,
    max: 200,
    group: 'type',
  },
  {
    key: 'colour',
    kind: 'colour',
    types: ['text'],
    labelKey: 'composite.editor.colour',
    fallback: '#000000',
  },
  { key: 'bold', kind: 'checkbox', types: ['text'], labelKey: 'composite.editor.bold' },
  {
    key: 'align',
    kind: 'buttons',
    types: ['text'],
    labelKey: 'composite.editor.align',
    modes: ['left', 'centre', 'right'],
    modeLabelKey: 'composite.editor.alignMode',
  },
  {
    key: 'verticalAlign',
    kind: 'buttons',
    types: ['text'],
    labelKey: 'composite.editor.verticalAlign',
    modes: ['top', 'middle', 'bottom'],
    modeLabelKey: 'composite.editor.verticalMode',
  },
  {
    key: 'height',
    kind: 'pixels',
    types: ['text'],
    labelKey: 'composite.editor.height',
    min: 20,
    max: 2000,
    testId: 'block-height',
    hint: { key: 'composite.editor.textHeightHint' },
  },
  {
    key: 'background',
    kind: 'colour',
    types: ['text'],
    labelKey: 'composite.editor.blockBackground',
    nullable: true,
  },
  {
    key: 'height',
    kind: 'pixels',
    types: ['spacer'],
    labelKey: 'composite.editor.height',
    min: 1,
    max: 2000,
    testId: 'block-height',
  },
  { key: 'colour', kind: 'colour', types: ['spacer'], labelKey: 'composite.editor.colour', nullable: true },
  {
    key: 'fit',
    kind: 'buttons',
    types: FITTED,
    labelKey: 'composite.editor.fit',
    modes: ['cover', 'contain'],
    modeLabelKey: 'composite.editor.fitMode',
  },
  {
    key: 'position',
    kind: 'select',
    types: FITTED,
    labelKey: 'composite.editor.position',
    modes: ['centre', 'top', 'bottom', 'left', 'right'],
    modeLabelKey: 'composite.editor.positionMode',
  },
  // A contained picture leaves room around it: its colour is the block's background.
  {
    key: 'background',
    kind: 'colour',
    types: FITTED,
    labelKey: 'composite.editor.blockBackground',
    nullable: true,
    when: (block) => 'fit' in block && block.fit === 'contain',
  },
  {
    key: 'padding',
    kind: 'padding',
    types: ['image', 'grid', 'text', 'fixed'],
    labelKey: 'composite.editor.padding',
  },
];

/** The rows of one block's form, runs of one `group` gathered. */
export function blockFieldRows(block: Block): BlockField[][] {
  const rows: BlockField[][] = [];
  for (const field of BLOCK_FIELDS) {
    if (!field.types.includes(block.type) || (field.when && !field.when(block))) continue;
    const last = rows.at(-1);
    if (field.group && last?.[0]?.group === field.group) last.push(field);
    else rows.push([field]);
  }
  return rows;
}
