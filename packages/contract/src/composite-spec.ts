import { z } from 'zod';
import { COMPLETENESS_VIEW_CODE_MAX_CHARS, COMPLETENESS_VIEW_CODE_PATTERN } from './completeness-values';
import {
  BLOCK_LABEL_MAX_CHARS,
  GRID_CELLS_MAX,
  JPEG_QUALITY_DEFAULT,
  JPEG_QUALITY_MAX,
  JPEG_QUALITY_MIN,
  OUTPUT_STEM_DEFAULT,
  OUTPUT_STEM_MAX_CHARS,
  SLICE_HEIGHT_DEFAULT,
  SLICE_HEIGHT_MAX,
  SLICE_HEIGHT_MIN,
  TEMPLATE_BLOCKS_MAX,
  TEMPLATE_WIDTH_MAX,
  TEMPLATE_WIDTH_MIN,
  TEXT_BLOCK_MAX_CHARS,
  TEXT_FIELDS,
} from './composite-values';
import { safeFileNamePart } from './presets';

/**
 * A detail-page template's content (issue 16): its blocks, output and spec, as one version of it
 * stores them; re-exported by ./composite.
 */

const id = z.number().int().positive().max(2_147_483_647);

const px = (min: number, max: number) => z.number().int().min(min).max(max);
export const colourSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, { error: 'invalidColour' });

/** A block's id: short, made by the editor, stable across versions (swaps and results name blocks by it). */
export const blockIdSchema = z.string().regex(/^[a-z0-9]{1,12}$/, { error: 'invalidFormat' });

export const paddingSchema = z.object({
  top: px(0, 400).default(0),
  right: px(0, 400).default(0),
  bottom: px(0, 400).default(0),
  left: px(0, 400).default(0),
});
export type Padding = z.infer<typeof paddingSchema>;
const padding = paddingSchema.default({ top: 0, right: 0, bottom: 0, left: 0 });

/** How an image slot finds its file among the article's: a view (file-name code or the view's tag), a tag, or the n-th image. */
export const fillRuleSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('view'),
    code: z
      .string()
      .trim()
      .normalize('NFC')
      .toLowerCase()
      .max(COMPLETENESS_VIEW_CODE_MAX_CHARS, { error: 'tooLong' })
      .regex(COMPLETENESS_VIEW_CODE_PATTERN, { error: 'viewCode' }),
  }),
  z.object({ kind: z.literal('tag'), tagId: id }),
  z.object({ kind: z.literal('nth'), n: px(1, 50) }),
]);
export type FillRule = z.infer<typeof fillRuleSchema>;

const imageFit = {
  /**
   * contain (the default): the whole picture, on `background`, so a shoe keeps its toe and heel;
   * cover fills the box and cuts what sticks out (issue 39 item 12).
   */
  fit: z.enum(['cover', 'contain']).default('contain'),
  position: z.enum(['centre', 'top', 'bottom', 'left', 'right']).default('centre'),
  /** Behind a `contain` image; null: the page's background. */
  background: colourSchema.nullable().default(null),
};
const label = z.string().trim().max(BLOCK_LABEL_MAX_CHARS, { error: 'tooLong' }).default('');

export const imageBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('image'),
  label,
  rule: fillRuleSchema,
  /** A required slot without a file leaves the article unrendered (`missing`); an optional one is left out. */
  required: z.boolean().default(true),
  /** null: the image's own aspect ratio at the content width. */
  height: px(20, 4000).nullable().default(null),
  padding,
  ...imageFit,
});
export const gridBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('grid'),
  label,
  columns: z.union([z.literal(2), z.literal(3)]),
  cells: z.array(fillRuleSchema).min(1, { error: 'required' }).max(GRID_CELLS_MAX, { error: 'tooMany' }),
  /** null: square cells. */
  cellHeight: px(20, 2000).nullable().default(null),
  gap: px(0, 100).default(0),
  /** all: every cell needs a file; any: at least one (empty cells stay background); none: optional. */
  required: z.enum(['all', 'any', 'none']).default('all'),
  padding,
  ...imageFit,
});
export const textBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('text'),
  /** Free text with `{artNum}`, `{name}` … (TEXT_FIELDS). */
  text: z.string().min(1, { error: 'required' }).max(TEXT_BLOCK_MAX_CHARS, { error: 'tooLong' }),
  fontId: z.string().min(1, { error: 'required' }).max(40),
  /** Pixels. */
  size: px(8, 200),
  colour: colourSchema.default('#000000'),
  bold: z.boolean().default(false),
  align: z.enum(['left', 'centre', 'right']).default('left'),
  verticalAlign: z.enum(['top', 'middle', 'bottom']).default('middle'),
  /** Extra pixels between lines; null: the font's own. */
  lineSpacing: px(0, 200).nullable().default(null),
  height: px(20, 2000),
  padding,
  background: colourSchema.nullable().default(null),
});
export const spacerBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('spacer'),
  height: px(1, 2000),
  /** null: the page's background. */
  colour: colourSchema.nullable().default(null),
});
export const fixedBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('fixed'),
  label,
  /** A template asset (uploaded banner). */
  assetId: id,
  /** null: the asset's aspect ratio at the content width. */
  height: px(20, 4000).nullable().default(null),
  padding,
  ...imageFit,
});
export const blockSchema = z.discriminatedUnion('type', [
  imageBlockSchema,
  gridBlockSchema,
  textBlockSchema,
  spacerBlockSchema,
  fixedBlockSchema,
]);
export type Block = z.infer<typeof blockSchema>;
export type ImageBlock = z.infer<typeof imageBlockSchema>;
export type GridBlock = z.infer<typeof gridBlockSchema>;
export type TextBlock = z.infer<typeof textBlockSchema>;
export type SpacerBlock = z.infer<typeof spacerBlockSchema>;
export type FixedBlock = z.infer<typeof fixedBlockSchema>;

const PLACEHOLDER = /\{([^{}]*)\}/g;
/** The `{…}` of a text that name no field (shown as the error). */
export function unknownTextPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)]
    .map((match) => match[1] as string)
    .filter((name) => !(TEXT_FIELDS as readonly string[]).includes(name))
    .map((name) => `{${name}}`);
}

export const templateOutputSchema = z.object({
  sliceMaxHeight: px(SLICE_HEIGHT_MIN, SLICE_HEIGHT_MAX).default(SLICE_HEIGHT_DEFAULT),
  quality: px(JPEG_QUALITY_MIN, JPEG_QUALITY_MAX).default(JPEG_QUALITY_DEFAULT),
  /** The middle of the output names: `<artNum>_<stem>_00.jpg` (whole page), `_01…` (slices). */
  stem: z
    .string()
    .trim()
    .min(1, { error: 'required' })
    .max(OUTPUT_STEM_MAX_CHARS, { error: 'tooLong' })
    .superRefine((stem, ctx) => {
      const char = [...stem].find((c) => safeFileNamePart(c) !== c);
      if (char) ctx.addIssue({ code: 'custom', message: 'illegalCharacter', params: { char } });
    })
    .default(OUTPUT_STEM_DEFAULT),
  /** Save the whole page as a file. */
  page: z.boolean().default(true),
  /** Save the slices as files. */
  slices: z.boolean().default(true),
  /** Tags the outputs get by default (the compose screen may change them). */
  tagIds: z.array(id).max(20, { error: 'tooMany' }).default([]),
});
export type TemplateOutput = z.infer<typeof templateOutputSchema>;

/** A template's content: one version of it. */
export const templateSpecSchema = z
  .object({
    width: px(TEMPLATE_WIDTH_MIN, TEMPLATE_WIDTH_MAX),
    background: colourSchema.default('#ffffff'),
    blocks: z.array(blockSchema).min(1, { error: 'required' }).max(TEMPLATE_BLOCKS_MAX, { error: 'tooMany' }),
    output: templateOutputSchema.default({
      sliceMaxHeight: SLICE_HEIGHT_DEFAULT,
      quality: JPEG_QUALITY_DEFAULT,
      stem: OUTPUT_STEM_DEFAULT,
      page: true,
      slices: true,
      tagIds: [],
    }),
  })
  .superRefine((spec, ctx) => {
    const seen = new Set<string>();
    spec.blocks.forEach((block, index) => {
      if (seen.has(block.id))
        ctx.addIssue({ code: 'custom', path: ['blocks', index, 'id'], message: 'duplicateValue' });
      seen.add(block.id);
      if (block.type === 'text') {
        const unknown = unknownTextPlaceholders(block.text)[0];
        if (unknown)
          ctx.addIssue({
            code: 'custom',
            path: ['blocks', index, 'text'],
            message: 'unknownPlaceholder',
            params: { placeholder: unknown, known: TEXT_FIELDS.map((field) => `{${field}}`).join(' ') },
          });
      }
      if ('padding' in block) {
        const { left, right } = block.padding;
        if (left + right >= spec.width)
          ctx.addIssue({ code: 'custom', path: ['blocks', index, 'padding'], message: 'tooBig' });
      }
    });
    if (!spec.output.page && !spec.output.slices)
      ctx.addIssue({ code: 'custom', path: ['output', 'slices'], message: 'required' });
  });
export type TemplateSpec = z.output<typeof templateSpecSchema>;
export type TemplateSpecInput = z.input<typeof templateSpecSchema>;
