import { z } from 'zod';
import { DOWNLOAD_METADATA, type DownloadMetadata, MAX_SCALING_PX } from './files';

/**
 * Download presets (issue 5): named output settings an administrator defines for the sales
 * channels, e.g. "Tmall main image" = JPG, longer side 800 px, white background,
 * `{artNum}_{index}.jpg`. A download that names a preset converts every image it contains.
 */
export const PRESET_FORMATS = ['jpg', 'png'] as const;
export type PresetFormat = (typeof PRESET_FORMATS)[number];

/** What a preset does with embedded metadata (its outputs are conversions: nothing to keep as stored). */
export const PRESET_METADATA = ['embed', 'strip'] as const satisfies readonly DownloadMetadata[];
export type PresetMetadata = (typeof PRESET_METADATA)[number];
/** A preset's output colours: converted to sRGB and tagged so, or the source's profile kept. */
export const PRESET_COLOUR_PROFILES = ['srgb', 'keep'] as const;
export type PresetColourProfile = (typeof PRESET_COLOUR_PROFILES)[number];

/** What a file-name template may contain besides literal text. */
export const PRESET_PLACEHOLDERS = ['name', 'artNum', 'index', 'format', 'width', 'height'] as const;
export type PresetPlaceholder = (typeof PRESET_PLACEHOLDERS)[number];

export const PRESET_NAME_MAX_CHARS = 50;
export const PRESET_TEMPLATE_MAX_CHARS = 200;
/** Longest file name a zip entry gets from a template (file systems allow 255 bytes). */
export const RENDERED_NAME_MAX_CHARS = 180;

/**
 * Characters no file name may hold on Windows, macOS or Linux, plus SPEC §5's `$` and `|`.
 * Literal text of a template may not contain them; values put into a template have them replaced.
 */
const ILLEGAL_FILE_NAME_CHARACTERS = new Set(['\\', '/', ':', '*', '?', '"', '<', '>', '|', '$']);
const isControl = (char: string) => (char.codePointAt(0) ?? 0) < 0x20 || char === '\u007f';

export type TemplateProblem =
  | { kind: 'unknownPlaceholder'; placeholder: string }
  | { kind: 'illegalCharacter'; char: string }
  | { kind: 'noPlaceholder' };

/**
 * The first problem of a file-name template, or null when it is usable: `{…}` must name a known
 * placeholder, braces must pair, literal text must be legal in a file name, and a template must
 * hold at least one placeholder (a fixed name would make every file of a download the same).
 */
export function templateProblem(template: string): TemplateProblem | null {
  let placeholders = 0;
  const literal: string[] = [];
  for (let i = 0; i < template.length; i++) {
    const char = template[i] as string;
    if (char === '{') {
      const close = template.indexOf('}', i + 1);
      const inner = close < 0 ? template.slice(i + 1) : template.slice(i + 1, close);
      const shown = close < 0 ? template.slice(i) : `{${inner}}`;
      if (close < 0 || !(PRESET_PLACEHOLDERS as readonly string[]).includes(inner)) {
        return { kind: 'unknownPlaceholder', placeholder: shown };
      }
      placeholders += 1;
      i = close;
      continue;
    }
    if (char === '}') return { kind: 'unknownPlaceholder', placeholder: '}' };
    literal.push(char);
  }
  for (const char of literal) {
    if (ILLEGAL_FILE_NAME_CHARACTERS.has(char) || isControl(char)) return { kind: 'illegalCharacter', char };
  }
  if (placeholders === 0) return { kind: 'noPlaceholder' };
  return null;
}

/** A value made safe for a file name: illegal characters become `_`. */
export function safeFileNamePart(value: string): string {
  return [...value].map((c) => (ILLEGAL_FILE_NAME_CHARACTERS.has(c) || isControl(c) ? '_' : c)).join('');
}

export interface TemplateValues {
  name: string;
  /** The file's article number; a file without one uses its name. */
  artNum: string | null;
  index: number;
  format: PresetFormat;
  width: number;
  height: number;
}

/**
 * The file name a template gives one output: placeholders filled with values made legal, trailing
 * dots and spaces trimmed (Windows drops them), cut to a sane length, and ending in the output's
 * extension (appended when the template does not already end with it).
 */
export function renderFileName(template: string, values: TemplateValues): string {
  const filled = template.replace(/\{(\w+)\}/g, (whole, key: string) => {
    switch (key) {
      case 'name':
        return safeFileNamePart(values.name);
      case 'artNum':
        return safeFileNamePart(values.artNum || values.name);
      case 'index':
        return String(values.index);
      case 'format':
        return values.format;
      case 'width':
        return String(values.width);
      case 'height':
        return String(values.height);
      default:
        return whole;
    }
  });
  const extensions = values.format === 'jpg' ? ['.jpg', '.jpeg'] : ['.png'];
  const lower = filled.toLowerCase();
  const ext = extensions.find((e) => lower.endsWith(e));
  let stem = ext ? filled.slice(0, filled.length - ext.length) : filled;
  stem = [...stem]
    .slice(0, RENDERED_NAME_MAX_CHARS)
    .join('')
    .replace(/[. ]+$/, '');
  if (stem.trim() === '') stem = safeFileNamePart(values.name) || 'file';
  return `${stem}${ext ? filled.slice(filled.length - ext.length) : `.${values.format}`}`;
}

const templateSchema = z
  .string()
  .transform((value) => value.trim())
  .superRefine((value, ctx) => {
    if (value.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'required' });
      return;
    }
    if (value.length > PRESET_TEMPLATE_MAX_CHARS) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'string',
        maximum: PRESET_TEMPLATE_MAX_CHARS,
        inclusive: true,
        message: '',
      });
      return;
    }
    const problem = templateProblem(value);
    if (problem?.kind === 'unknownPlaceholder') {
      ctx.addIssue({
        code: 'custom',
        message: 'unknownPlaceholder',
        params: {
          placeholder: problem.placeholder,
          known: PRESET_PLACEHOLDERS.map((p) => `{${p}}`).join(' '),
        },
      });
    } else if (problem?.kind === 'illegalCharacter') {
      ctx.addIssue({ code: 'custom', message: 'illegalCharacter', params: { char: problem.char } });
    } else if (problem?.kind === 'noPlaceholder') {
      ctx.addIssue({
        code: 'custom',
        message: 'noPlaceholder',
        params: { known: PRESET_PLACEHOLDERS.map((p) => `{${p}}`).join(' ') },
      });
    }
  });

/** `#rrggbb`, stored in lower case. */
export const hexColourSchema = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/)
  .transform((value) => value.toLowerCase());

export const downloadPresetSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  format: z.enum(PRESET_FORMATS),
  /** Longer side of the output in pixels; null = the original size. */
  longSidePx: z.number().int().nullable(),
  /** Fill for transparent areas (JPG always has one; PNG keeps transparency when null). */
  background: z.string().nullable(),
  fileNameTemplate: z.string(),
  metadata: z.enum(PRESET_METADATA),
  colourProfile: z.enum(PRESET_COLOUR_PROFILES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DownloadPreset = z.infer<typeof downloadPresetSchema>;

/** Create (no id) or update (with id) a preset. */
export const savePresetRequestSchema = z
  .object({
    id: z.number().int().positive().optional(),
    name: z
      .string()
      .transform((value) => value.trim())
      .pipe(z.string().min(1).max(PRESET_NAME_MAX_CHARS)),
    format: z.enum(PRESET_FORMATS),
    longSidePx: z.number().int().positive().max(MAX_SCALING_PX).nullable().default(null),
    background: hexColourSchema.nullable().default(null),
    fileNameTemplate: templateSchema,
    metadata: z.enum(PRESET_METADATA).default('embed'),
    colourProfile: z.enum(PRESET_COLOUR_PROFILES).default('srgb'),
  })
  .strict();
export type SavePresetRequest = z.input<typeof savePresetRequestSchema>;

export const deletePresetRequestSchema = z.object({ id: z.number().int().positive() }).strict();

/** The JPG fill when a preset names none. */
export const DEFAULT_PRESET_BACKGROUND = '#ffffff';

/** At most this many article numbers in one download (SPEC §5/§9 batch boxes: 10000). */
export const MAX_ART_NUMS_PER_DOWNLOAD = 10_000;
const ART_NUM_MAX_CHARS = 64;

/**
 * Article numbers from pasted text: split on white space and commas (also full-width `，`, `、`
 * and `;`), trimmed, duplicates dropped without regard to case (first spelling kept), in order.
 */
export function parseArtNums(text: string | readonly string[]): string[] {
  const parts = (typeof text === 'string' ? [text] : text).flatMap((t) => t.split(/[\s,，、;；]+/u));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of parts) {
    const value = raw.trim();
    if (!value || seen.has(value.toLowerCase())) continue;
    seen.add(value.toLowerCase());
    out.push(value);
  }
  return out;
}

/** POST /v1_0/file/download-by-art-num: one zip, a folder per article number. */
export const artNumDownloadRequestSchema = z
  .object({
    /** Article numbers, or pasted text holding them (split and de-duplicated by the server). */
    artNumList: z
      .array(z.string().max(MAX_ART_NUMS_PER_DOWNLOAD * (ART_NUM_MAX_CHARS + 2)))
      .max(MAX_ART_NUMS_PER_DOWNLOAD)
      .transform((list) => parseArtNums(list))
      .pipe(
        z
          .array(z.string().max(ART_NUM_MAX_CHARS))
          .min(1, { message: 'required' })
          .max(MAX_ART_NUMS_PER_DOWNLOAD),
      ),
    /** Formats of each file (`all` or none = every format; `jpg`/`png` convert when missing). */
    formats: z.array(z.string().trim().toLowerCase().min(1).max(16)).max(20).default([]),
    presetId: z.number().int().positive().nullable().optional(),
    /** Embedded metadata: the platform's written in (default), or everything removed. */
    metadata: z.enum(DOWNLOAD_METADATA).optional(),
    /** `.xmp` sidecars beside the formats that cannot carry the platform's metadata (issue 42). */
    xmpSidecars: z.boolean().optional(),
  })
  .strict();
export type ArtNumDownloadRequest = z.input<typeof artNumDownloadRequestSchema>;
export type ArtNumDownloadPayload = z.output<typeof artNumDownloadRequestSchema>;

/** Name of the text file in a by-article-number zip listing the numbers that matched nothing. */
export const UNMATCHED_ART_NUMS_FILE = '_unmatched-article-numbers.txt';
