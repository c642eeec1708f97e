// Colour management (issue 42 item 4) measured against LittleCMS: for each source profile a chart
// of device values (6×6×6 cube, 17-step grey, primaries; CMYK adds K and rich-black patches) is
// written as an uncompressed TIFF tagged with the profile (server/test/colour/chart.ts). LittleCMS's
// tificc (Debian liblcms2-utils) converts it perceptually into libvips' own sRGB profile; the
// platform's JPG/PNG download conversion makes a PNG and a JPEG of the same file. The table gives
// CIEDE2000 of each patch's mean colour, ours against LittleCMS's, beside the figure with no
// colour management at all. Target (the issue): PNG mean < 1 and max < 3 for CMYK, Adobe RGB, P3
// (TIFF and PSD sources alike).
import {
  COLOUR_CASES,
  type ColourResult,
  hasTificc,
  measureCase,
  UNTAGGED_CMYK_CASE,
} from '../server/test/colour/chart';

if (!(await hasTificc())) {
  console.error('tificc (Debian liblcms2-utils) is not installed: run `npm run setup`');
  process.exit(1);
}

const ISSUE_CASES = COLOUR_CASES.slice(0, 3);
const TARGETED = new Set(
  ['', 'PSD ', 'PSD 16-bit '].flatMap((prefix) => ISSUE_CASES.map((c) => `${prefix}${c.label}`)),
);
const results: ColourResult[] = [];
for (const colourCase of [...COLOUR_CASES, UNTAGGED_CMYK_CASE]) results.push(await measureCase(colourCase));
// The same charts as PSDs (PackBits, profile in image resource 1039): media/psd-colour.ts's path.
for (const colourCase of [...ISSUE_CASES, UNTAGGED_CMYK_CASE])
  results.push(await measureCase(colourCase, 'psd'));
// 16-bit RGB PSDs: a tagged RGB16 `.v`, converted through sharp's P3 working space.
for (const colourCase of COLOUR_CASES.slice(1)) results.push(await measureCase(colourCase, 'psd16'));

const pair = (figure: { mean: number; max: number }) =>
  `${figure.mean.toFixed(2)} / ${figure.max.toFixed(2)}`;
const rows = results.map((r) => {
  const targeted = TARGETED.has(r.label);
  const met = r.png.mean < 1 && r.png.max < 3;
  return [
    r.label,
    String(r.patches),
    pair(r.png),
    pair(r.jpeg),
    pair(r.pngVsBpc),
    pair(r.unmanaged),
    targeted ? (met ? 'met' : 'MISSED') : met ? '(met)' : '(reported)',
  ];
});
const head = [
  'source profile',
  'patches',
  'PNG vs LittleCMS mean/max',
  'JPEG download vs LittleCMS',
  'PNG vs LittleCMS -b (BPC)',
  'unmanaged vs LittleCMS',
  'mean<1, max<3',
];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
console.log('\nColour management: ΔE2000 (mean / max) of our sRGB renditions against LittleCMS (tificc -t0)');
console.log(line(head));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const row of rows) console.log(line(row));
console.log(
  'PNG: the download converter (decodeImage, withIccProfile srgb); JPEG: the same at q92 4:4:4.\n' +
    'Reference: tificc -t0 -o <libvips sRGB> (embedded profile; untagged CMYK: -n -i <libvips cmyk>).',
);
if (rows.some((r) => r[6] === 'MISSED')) process.exit(1);
