import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { templateSpecSchema } from '@dam/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_IN_FONTS, loadComposeFonts, NO_CJK_FONT_WARNING, readFontFacts } from './fonts';

const WQY = '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc';
const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const DEJAVU_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-fonts-'));
afterAll(() => fsp.rm(dir, { recursive: true, force: true }));

describe('font files', () => {
  it.skipIf(!fs.existsSync(WQY))('reads the family and CJK coverage of a collection (TTC)', async () => {
    expect(await readFontFacts(WQY)).toEqual({ family: 'WenQuanYi Zen Hei', cjk: true });
    // Another face of the same collection, named.
    expect(await readFontFacts(WQY, 'WenQuanYi Zen Hei Mono')).toEqual({
      family: 'WenQuanYi Zen Hei Mono',
      cjk: true,
    });
  });

  it('reads the family of a TrueType file without CJK', async () => {
    expect(await readFontFacts(DEJAVU)).toEqual({ family: 'DejaVu Sans', cjk: false });
  });

  it('refuses what is no font', async () => {
    const text = path.join(dir, 'not-a-font.ttf');
    await fsp.writeFile(text, 'hello, this is no font at all');
    await expect(readFontFacts(text)).rejects.toThrow('not a TrueType or OpenType font');
  });
});

describe('the registry', () => {
  it('lists the built-in fonts with their bold files, and a configured one replacing a built-in id', async () => {
    const fonts = await loadComposeFonts([{ id: 'wqy-zenhei', file: DEJAVU, boldFile: DEJAVU_BOLD }]);
    expect(fonts.list().map((font) => font.id)).toEqual([
      ...BUILT_IN_FONTS.map((font) => font.id).filter((id) => id !== 'wqy-zenhei'),
      'wqy-zenhei',
    ]);
    expect(fonts.get('dejavu-sans')).toMatchObject({
      family: 'DejaVu Sans',
      boldFile: DEJAVU_BOLD,
      available: true,
    });
    expect(fonts.get('wqy-zenhei')).toMatchObject({ family: 'DejaVu Sans', file: DEJAVU, cjk: false });
  });

  it('keeps a missing font as not available, names it in a spec, and warns when no CJK font is left', async () => {
    const missing = path.join(dir, 'Brand.ttf');
    const fonts = await loadComposeFonts(
      [{ id: 'brand', file: missing }],
      BUILT_IN_FONTS.filter((font) => font.id === 'dejavu-sans'),
    );
    expect(fonts.get('brand')).toMatchObject({
      available: false,
      problem: `${missing}: no such file`,
      family: 'brand',
    });
    const spec = templateSpecSchema.parse({
      width: 790,
      blocks: [
        { id: 'a', type: 'text', text: 'x', fontId: 'brand', size: 20, height: 40 },
        { id: 'b', type: 'text', text: 'x', fontId: 'dejavu-sans', size: 20, height: 40 },
        { id: 'c', type: 'text', text: 'x', fontId: 'unknown', size: 20, height: 40 },
        { id: 'd', type: 'text', text: 'x', fontId: 'brand', size: 20, height: 40 },
      ],
    });
    expect(fonts.missingFonts(spec)).toEqual(['brand', 'unknown']);
    expect(fonts.startupReport()).toEqual({
      info: 'composition fonts: DejaVu Sans',
      warnings: [
        `composition font brand (COMPOSE_FONTS) is not available: ${missing}: no such file`,
        NO_CJK_FONT_WARNING,
      ],
    });
  });

  it.skipIf(!fs.existsSync(WQY))('says which fonts hold CJK at start-up, without a warning', async () => {
    const report = (await loadComposeFonts([])).startupReport();
    expect(report.info).toContain('WenQuanYi Zen Hei (CJK)');
    expect(report.info).toContain('DejaVu Sans');
    expect(report.warnings).toEqual([]);
  });
});
