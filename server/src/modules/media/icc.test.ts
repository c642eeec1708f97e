import fs from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { browserShowsAsIs, describeIcc, UNTAGGED_CMYK_PROFILE } from './icc';

// Real profiles from Debian packages scripts/setup-system.sh installs (libgs-common, argyll-ref).
const GHOSTSCRIPT = '/usr/share/color/icc/ghostscript';
const ARGYLL = '/usr/share/color/argyll/ref';
const read = (file: string) => fs.readFileSync(file);

/** libvips' built-in profile of that name, as sharp attaches it. */
async function builtIn(name: 'srgb' | 'p3' | 'cmyk'): Promise<Buffer> {
  const pixel = sharp({ create: { width: 2, height: 2, channels: 3, background: '#808080' } });
  const made = await pixel
    .withIccProfile(name)
    .toColourspace(name === 'cmyk' ? 'cmyk' : 'srgb')
    .jpeg()
    .toBuffer();
  return (await sharp(made).metadata()).icc as Buffer;
}

describe('describeIcc: an embedded profile’s space, version and description', () => {
  it('reads v2 ASCII descriptions (CMYK, Adobe RGB, P3, ProPhoto, grey, Lab)', () => {
    expect(describeIcc(read(`${GHOSTSCRIPT}/default_cmyk.icc`))).toEqual({
      name: 'Artifex CMYK SWOP Profile',
      space: 'CMYK',
      version: '2.1',
    });
    expect(describeIcc(read(`${ARGYLL}/ClayRGB1998.icm`))).toEqual({
      name: 'Interchangeable with Adobe RGB (1998)',
      space: 'RGB',
      version: '2.2',
    });
    expect(describeIcc(read(`${ARGYLL}/DisplayP3.icm`))?.name).toBe('DisplayP3 color profile');
    expect(describeIcc(read(`${ARGYLL}/ProPhoto.icm`))?.name).toBe('ProPhoto RGB');
    expect(describeIcc(read(`${GHOSTSCRIPT}/sgray.icc`))).toMatchObject({ space: 'GRAY', version: '2.1' });
    expect(describeIcc(read(`${GHOSTSCRIPT}/lab.icc`))).toMatchObject({ space: 'Lab', name: 'Lab2Lab' });
  });

  it('reads v4 multi-localized descriptions', async () => {
    expect(describeIcc(read(`${GHOSTSCRIPT}/ps_cmyk.icc`))).toEqual({
      name: 'Artifex PS CMYK Profile',
      space: 'CMYK',
      version: '4.2',
    });
    expect(describeIcc(await builtIn('srgb'))).toEqual({ name: 'sRGB', space: 'RGB', version: '4.2' });
    expect(describeIcc(await builtIn('p3'))).toEqual({ name: 'sP3C', space: 'RGB', version: '4.2' });
  });

  it('names the untagged-CMYK default after libvips’ own CMYK profile', async () => {
    expect(describeIcc(await builtIn('cmyk'))).toEqual({
      name: UNTAGGED_CMYK_PROFILE,
      space: 'CMYK',
      version: '2.2',
    });
  });

  it('prefers en-US, then any English, in a v4 description', () => {
    const profile = Buffer.from(read(`${GHOSTSCRIPT}/ps_rgb.icc`));
    const tag = mluc([
      ['de', 'DE', 'Deutsch'],
      ['en', 'GB', 'British'],
      ['en', 'US', 'American'],
    ]);
    const replaced = withDescription(profile, tag);
    expect(describeIcc(replaced)?.name).toBe('American');
    expect(describeIcc(withDescription(profile, mluc([['fr', 'FR', 'Français']])))?.name).toBe('Français');
    expect(
      describeIcc(
        withDescription(
          profile,
          mluc([
            ['ja', 'JP', 'x'],
            ['en', 'GB', 'UK'],
          ]),
        ),
      )?.name,
    ).toBe('UK');
  });

  it('answers null for what is no profile, and survives lying lengths', () => {
    expect(describeIcc(undefined)).toBeNull();
    expect(describeIcc(Buffer.alloc(200))).toBeNull();
    expect(describeIcc(read(`${GHOSTSCRIPT}/srgb.icc`).subarray(0, 100))).toBeNull();
    const profile = Buffer.from(read(`${GHOSTSCRIPT}/srgb.icc`));
    // A tag count of 4 billion and a description past the end.
    const huge = Buffer.from(profile);
    huge.writeUInt32BE(0xffffffff, 128);
    expect(describeIcc(huge)?.space).toBe('RGB');
    const lying = withDescription(profile, mluc([['en', 'US', 'x']]));
    const at = lying.indexOf('mluc', 128, 'latin1');
    lying.writeUInt32BE(0x7fffffff, at + 16 + 4); // the record's length
    lying.writeUInt32BE(0x7fffffff, at + 8); // the record count
    expect(() => describeIcc(lying)).not.toThrow();
    // Truncated in the middle of the tag table.
    expect(describeIcc(profile.subarray(0, 140))).toMatchObject({ space: 'RGB', name: null });
  });
});

describe('browserShowsAsIs: which browser-format sources get an sRGB preview', () => {
  it('shows untagged, sRGB and grey sources as they are', async () => {
    expect(browserShowsAsIs('srgb', undefined)).toBe(true);
    expect(browserShowsAsIs('srgb', await builtIn('srgb'))).toBe(true);
    expect(browserShowsAsIs('srgb', read(`${ARGYLL}/sRGB.icm`))).toBe(true);
    expect(browserShowsAsIs('srgb', read(`${GHOSTSCRIPT}/srgb.icc`))).toBe(true);
    expect(browserShowsAsIs('b-w', read(`${GHOSTSCRIPT}/sgray.icc`))).toBe(true);
  });

  it('previews CMYK (tagged or not) and wide-gamut RGB sources', async () => {
    expect(browserShowsAsIs('cmyk', undefined)).toBe(false);
    expect(browserShowsAsIs('cmyk', read(`${GHOSTSCRIPT}/default_cmyk.icc`))).toBe(false);
    expect(browserShowsAsIs('srgb', read(`${ARGYLL}/ClayRGB1998.icm`))).toBe(false);
    expect(browserShowsAsIs('srgb', read(`${ARGYLL}/DisplayP3.icm`))).toBe(false);
    expect(browserShowsAsIs('srgb', await builtIn('p3'))).toBe(false);
    expect(browserShowsAsIs('srgb', read(`${GHOSTSCRIPT}/esrgb.icc`))).toBe(false);
  });
});

/** A v4 `mluc` tag of those records. */
function mluc(records: [string, string, string][]): Buffer {
  const texts = records.map(([, , text]) => Buffer.from(text, 'utf16le').swap16());
  const head = Buffer.alloc(16 + records.length * 12);
  head.write('mluc', 0, 'latin1');
  head.writeUInt32BE(records.length, 8);
  head.writeUInt32BE(12, 12);
  let offset = head.length;
  records.forEach(([language, country], i) => {
    const at = 16 + i * 12;
    head.write(language + country, at, 'latin1');
    head.writeUInt32BE((texts[i] as Buffer).length, at + 4);
    head.writeUInt32BE(offset, at + 8);
    offset += (texts[i] as Buffer).length;
  });
  return Buffer.concat([head, ...texts]);
}

/** The profile with its `desc` tag pointed at `tag`, appended at the end. */
function withDescription(profile: Buffer, tag: Buffer): Buffer {
  const out = Buffer.concat([profile, tag]);
  const count = out.readUInt32BE(128);
  for (let i = 0; i < count; i++) {
    const at = 132 + i * 12;
    if (out.toString('latin1', at, at + 4) !== 'desc') continue;
    out.writeUInt32BE(profile.length, at + 4);
    out.writeUInt32BE(tag.length, at + 8);
  }
  out.writeUInt32BE(out.length, 0);
  return out;
}
