import fsp from 'node:fs/promises';
import type { TemplateSpec } from '@dam/contract';
import type { ComposeFont, FontRegistry } from '../composite/engine/types';

/**
 * The fonts detail-page text may use (issue 16). Each is a file whose family is read from the file
 * itself: pango is handed the file and a family name, and a family that is not the file's makes
 * fontconfig fall back silently (Chinese as boxes, Latin in DejaVu Serif), so it is never typed.
 */

export interface FontCandidate {
  id: string;
  file: string;
  boldFile?: string | null;
  /** In a collection (TTC), the face to name (Noto's CJK collections start with the Japanese one). */
  preferFamily?: string;
}

/** Tried at start-up; those whose file is absent are listed as not available. */
export const BUILT_IN_FONTS: readonly FontCandidate[] = [
  { id: 'wqy-zenhei', file: '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc' },
  {
    id: 'noto-sans-cjk-sc',
    file: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
    boldFile: '/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc',
    preferFamily: 'Noto Sans CJK SC',
  },
  {
    id: 'dejavu-sans',
    file: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
    boldFile: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  },
];

export const NO_CJK_FONT_WARNING =
  'detail-page text in Chinese would render as boxes: install fonts-wqy-zenhei or fonts-noto-cjk, or set COMPOSE_FONTS';

/** What a font file says about itself. */
export interface FontFacts {
  family: string;
  /** OS/2 ulUnicodeRange bit 59 (CJK Unified Ideographs). */
  cjk: boolean;
}

class NotAFontError extends Error {}

/**
 * The family (name table: typographic family, nameID 16, else family, nameID 1; Windows English
 * first) and CJK coverage of a TrueType/OpenType file or of one face of a collection (TTC: the
 * face whose family is `preferFamily`, else the first). Reads a few KiB, not the file.
 */
export async function readFontFacts(file: string, preferFamily?: string): Promise<FontFacts> {
  const handle = await fsp.open(file, 'r');
  try {
    const read = async (position: number, length: number) => {
      const bytes = Buffer.alloc(length);
      const { bytesRead } = await handle.read(bytes, 0, length, position);
      if (bytesRead < length) throw new NotAFontError('truncated font file');
      return bytes;
    };
    const head = await read(0, 12);
    const tag = head.toString('latin1', 0, 4);
    let faces = [0];
    if (tag === 'ttcf') {
      const count = Math.min(head.readUInt32BE(8), 64);
      const offsets = await read(12, count * 4);
      faces = Array.from({ length: count }, (_, i) => offsets.readUInt32BE(i * 4));
    } else if (head.readUInt32BE(0) !== 0x00010000 && tag !== 'OTTO' && tag !== 'true') {
      throw new NotAFontError('not a TrueType or OpenType font');
    }
    let first: FontFacts | null = null;
    for (const offset of faces) {
      const facts = await readFace(read, offset);
      if (!preferFamily || facts.family === preferFamily) return facts;
      first ??= facts;
    }
    return first as FontFacts;
  } finally {
    await handle.close();
  }
}

async function readFace(
  read: (position: number, length: number) => Promise<Buffer>,
  offset: number,
): Promise<FontFacts> {
  const numTables = (await read(offset, 12)).readUInt16BE(4);
  const directory = await read(offset + 12, numTables * 16);
  const tables = new Map<string, { at: number; length: number }>();
  for (let i = 0; i < numTables; i++) {
    const record = i * 16;
    tables.set(directory.toString('latin1', record, record + 4), {
      at: directory.readUInt32BE(record + 8),
      length: directory.readUInt32BE(record + 12),
    });
  }
  const name = tables.get('name');
  if (!name) throw new NotAFontError('the font has no name table');
  const family = familyOf(await read(name.at, Math.min(name.length, 1 << 20)));
  if (!family) throw new NotAFontError('the font names no family');
  const os2 = tables.get('OS/2');
  // ulUnicodeRange2 sits at byte 46 of every OS/2 version; bit 27 of it is bit 59 overall.
  const cjk =
    os2 && os2.length >= 50 ? ((await read(os2.at + 46, 4)).readUInt32BE(0) & (1 << 27)) !== 0 : false;
  return { family, cjk };
}

function familyOf(table: Buffer): string | null {
  const count = table.readUInt16BE(2);
  const strings = table.readUInt16BE(4);
  const records: { platform: number; language: number; nameId: number; text: string }[] = [];
  for (let i = 0; i < count && 6 + i * 12 + 12 <= table.length; i++) {
    const at = 6 + i * 12;
    const platform = table.readUInt16BE(at);
    const nameId = table.readUInt16BE(at + 6);
    if (nameId !== 1 && nameId !== 16) continue;
    const length = table.readUInt16BE(at + 8);
    const start = strings + table.readUInt16BE(at + 10);
    if (start + length > table.length) continue;
    const raw = table.subarray(start, start + length);
    // Windows and Unicode names are UTF-16BE; Macintosh (platform 1) ones are single-byte Roman.
    const text =
      platform === 1
        ? raw.toString('latin1')
        : Buffer.from(raw.subarray(0, length & ~1))
            .swap16()
            .toString('utf16le');
    records.push({ platform, language: table.readUInt16BE(at + 4), nameId, text: text.trim() });
  }
  const rank = (r: (typeof records)[number]) =>
    (r.nameId === 16 ? 0 : 10) + (r.platform === 3 && r.language === 0x409 ? 0 : r.platform === 3 ? 1 : 2);
  const best = records.filter((r) => r.text).sort((a, b) => rank(a) - rank(b))[0];
  return best?.text ?? null;
}

async function fontOf(candidate: FontCandidate): Promise<ComposeFont> {
  const font: ComposeFont = {
    id: candidate.id,
    family: candidate.id,
    file: candidate.file,
    boldFile: null,
    cjk: false,
    available: false,
    problem: null,
  };
  try {
    const facts = await readFontFacts(candidate.file, candidate.preferFamily);
    font.family = facts.family;
    font.cjk = facts.cjk;
    font.available = true;
  } catch (error) {
    font.problem = problemOf(candidate.file, error);
    return font;
  }
  if (candidate.boldFile) {
    // A bold file that is missing or of another family is left out: pango then emboldens the regular face.
    const bold = await readFontFacts(candidate.boldFile, candidate.preferFamily).catch(() => null);
    if (bold?.family === font.family) font.boldFile = candidate.boldFile;
  }
  return font;
}

function problemOf(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `${file}: no such file`;
  if (code === 'EACCES') return `${file}: not readable`;
  if (code === 'EISDIR') return `${file}: a folder, not a font`;
  if (error instanceof NotAFontError || error instanceof RangeError) return `${file}: ${error.message}`;
  return `${file}: ${(error as Error).message}`;
}

/** The fonts of this process, read once at start-up. */
export class ComposeFonts implements FontRegistry {
  private readonly byId: Map<string, ComposeFont>;

  constructor(
    private readonly fonts: readonly ComposeFont[],
    /** Ids of fonts the operator configured (COMPOSE_FONTS): warned about when not available. */
    private readonly configured: ReadonlySet<string> = new Set(),
  ) {
    this.byId = new Map(fonts.map((font) => [font.id, font]));
  }

  list(): readonly ComposeFont[] {
    return this.fonts;
  }

  get(id: string): ComposeFont | undefined {
    return this.byId.get(id);
  }

  missingFonts(spec: Pick<TemplateSpec, 'blocks'>): string[] {
    const missing = new Set<string>();
    for (const block of spec.blocks)
      if (block.type === 'text' && !this.byId.get(block.fontId)?.available) missing.add(block.fontId);
    return [...missing];
  }

  /**
   * What main.ts and worker.ts log at start-up: the fonts available, and warnings for a configured
   * font that is not and for having no CJK font at all (the app still starts).
   */
  startupReport(): { info: string; warnings: string[] } {
    const available = this.fonts.filter((font) => font.available);
    const info = `composition fonts: ${
      available.map((font) => `${font.family}${font.cjk ? ' (CJK)' : ''}`).join(', ') || 'none'
    }`;
    const warnings = this.fonts
      .filter((font) => !font.available && this.configured.has(font.id))
      .map((font) => `composition font ${font.id} (COMPOSE_FONTS) is not available: ${font.problem}`);
    if (!available.some((font) => font.cjk)) warnings.push(NO_CJK_FONT_WARNING);
    return { info, warnings };
  }
}

/**
 * Reads the built-in candidates and COMPOSE_FONTS (an id of a built-in one replaces it, so an
 * operator may point `wqy-zenhei` at another file).
 */
export async function loadComposeFonts(
  configured: readonly { id: string; file: string; boldFile?: string | null }[],
  builtIn: readonly FontCandidate[] = BUILT_IN_FONTS,
): Promise<ComposeFonts> {
  const ids = new Set(configured.map((font) => font.id));
  const candidates = [...builtIn.filter((font) => !ids.has(font.id)), ...configured];
  const fonts = await Promise.all(candidates.map(fontOf));
  return new ComposeFonts(fonts, ids);
}
