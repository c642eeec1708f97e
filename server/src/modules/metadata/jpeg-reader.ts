import { DOMParser } from '@xmldom/xmldom';
import ExifReader, { type ExpandedTags } from 'exifreader';
import type { ReadTags } from './exiftool';
import { readJpegHead } from './jpeg-head';
import { type JpegIptc, jpegIptc } from './jpeg-iptc';

type XmpTag = NonNullable<ExpandedTags['xmp']>[string];
type ExifTags = NonNullable<ExpandedTags['exif']>;

/**
 * XMP properties that ExifTool would also return under a name the reader takes from EXIF: when the
 * EXIF side lacks one of them, what ExifTool gives is not obvious, and ExifTool reads the file.
 */
const XMP_ALSO_IN_EXIF: ReadonlyArray<[xmp: string, exif: string]> = [
  ['Make', 'Make'],
  ['Model', 'Model'],
  ['LensModel', 'LensModel'],
  ['Orientation', 'Orientation'],
  ['GPSLatitude', 'GPSLatitude'],
  ['GPSLongitude', 'GPSLongitude'],
  ['DateTimeOriginal', 'DateTimeOriginal'],
  ['ImageDescription', 'ImageDescription'],
  ['Artist', 'Artist'],
  ['Copyright', 'Copyright'],
];

/** XMP properties the platform keeps whose meaning ExifTool gives by a table (PSD colour mode, lenses). */
const XMP_LEFT_TO_EXIFTOOL = ['ColorMode', 'Lens', 'LensID', 'PageCount', 'Author', 'MediaCreateDate'];

/** An EXIF text as ExifTool reads it with MWG (EXIF strings are UTF-8), or undefined. */
function exifText(tags: ExifTags, name: string): string | undefined {
  const value = (tags as Record<string, { value: unknown } | undefined>)[name]?.value;
  const raw = Array.isArray(value) ? value.join('') : typeof value === 'string' ? value : undefined;
  if (raw === undefined) return undefined;
  // ExifReader gives each byte as a character; MWG reads EXIF text as UTF-8.
  const bytes = Buffer.from(raw, 'latin1');
  const utf8 = bytes.toString('utf8');
  const text = Buffer.from(utf8, 'utf8').equals(bytes) ? utf8 : raw;
  return text.replace(/\0[\s\S]*$/, '').trimEnd();
}

const blank = (value: string | undefined): value is undefined => value === undefined || /^ *$/.test(value);

/** An XMP value as ExifTool's JSON gives it: text, a list (Bag, Seq), or a language alternative's default. */
function xmpValue(tag: XmpTag | undefined): string | string[] | undefined {
  if (!tag) return undefined;
  if (typeof tag.value === 'string') return tag.value;
  if (!Array.isArray(tag.value)) return undefined;
  const items = tag.value;
  if (items.some((item) => item.attributes?.lang !== undefined)) {
    // rdf:Alt: ExifTool names the x-default entry by the bare tag name; other languages get a suffix.
    const fallback = items.find((item) => item.attributes?.lang === 'x-default');
    return typeof fallback?.value === 'string' ? fallback.value : undefined;
  }
  const texts = items.map((item) => item.value).filter((value): value is string => typeof value === 'string');
  return texts;
}

/** MWG's Artist: one string holding a list, `; ` between values (ExifTool splits it). */
const artistList = (artist: string) => {
  const values = artist.split('; ');
  return values.length === 1 ? artist : values;
};

/** EXIF date + sub-seconds + offset as ExifTool's SubSec composites give them. */
function subSecDate(date: string | undefined, subSec: string | undefined, offset: string | undefined) {
  if (blank(date) || /^[: ]*$/.test(date)) return undefined;
  const sub = subSec?.trim();
  return `${date}${sub ? `.${sub}` : ''}${offset?.trim() ?? ''}`;
}

const number = (value: unknown) => (typeof value === 'number' ? value : undefined);

type Value = string | string[] | undefined;

/** MWG's RecoverTruncatedIPTC: an IPTC value cut at the dataset's limit is the XMP one it starts. */
function recoverTruncated(iptc: Value, xmp: Value, limit: number): Value {
  if (xmp === undefined) return iptc;
  if (Array.isArray(iptc)) {
    const xmpList = Array.isArray(xmp) ? xmp : [xmp];
    return iptc.map((value, i) => recoverTruncated(value, xmpList[i], limit) as string);
  }
  const full = Array.isArray(xmp) ? xmp[0] : xmp;
  if (
    iptc !== undefined &&
    [...iptc].length === limit &&
    full &&
    [...full].length > limit &&
    full.startsWith(iptc)
  )
    return full;
  return iptc;
}

/**
 * One MWG "Desire" of EXIF (when not blank), then XMP or IPTC: XMP unless the file has IPTC that
 * XMP is not in step with (a stored digest that differs), or XMP lacks the value.
 */
function mwg(
  exif: string | undefined,
  iptc: JpegIptc | undefined,
  iptcName: string,
  xmp: Value,
  limit: number,
) {
  if (!blank(exif)) return exif;
  if (!iptc || (xmp !== undefined && iptc.inSyncWithXmp)) return xmp;
  return recoverTruncated(iptc.values[iptcName], xmp, limit);
}

/** MWG's dates: EXIF's (with sub-seconds and offset), else XMP's or IPTC's date and time as above. */
function mwgDate(exif: string | undefined, iptc: JpegIptc | undefined, names: [string, string], xmp: Value) {
  if (exif !== undefined) return exif;
  if (!iptc || (xmp !== undefined && iptc.inSyncWithXmp)) return xmp;
  const [date, time] = [iptcDate(iptc.values[names[0]]), iptcTime(iptc.values[names[1]])];
  return date && time ? `${date} ${time}` : date;
}

/** IPTC's `YYYYMMDD` as ExifTool prints it (`YYYY:MM:DD`). */
const iptcDate = (value: Value) =>
  typeof value === 'string' && /^\d{8}$/.test(value)
    ? `${value.slice(0, 4)}:${value.slice(4, 6)}:${value.slice(6)}`
    : undefined;
/** IPTC's `HHMMSS±HHMM` as ExifTool prints it (`HH:MM:SS±HH:MM`). */
const iptcTime = (value: Value) => {
  const match = typeof value === 'string' ? /^(\d{2})(\d{2})(\d{2})([+-]\d{2})(\d{2})$/.exec(value) : null;
  return match ? `${match[1]}:${match[2]}:${match[3]}${match[4]}:${match[5]}` : undefined;
};

/**
 * The tags of exiftool.ts READ_TAGS, read in this process from a JPEG carrying EXIF, XMP and ICC,
 * the way ExifTool with `-use MWG` names and settles them (its tables in `Image/ExifTool/MWG.pm`): a
 * camera's or a photographer's JPEG costs the media queue a fraction of what a round trip to Perl
 * does (issue 42's < 10 %). IPTC-IIM is settled with XMP by MWG's digest test (jpeg-iptc.ts). Null
 * whenever the answer could differ from ExifTool's: no JPEG, segments over 1 MiB, IPTC in a Latin
 * encoding or several segments, XMP holding what EXIF lacks, or anything the parser refuses.
 * ExifTool reads those.
 */
export async function readJpegTags(file: string): Promise<ReadTags | null> {
  const head = await readJpegHead(file);
  if (!head) return null;
  let tags: ExpandedTags;
  try {
    tags = ExifReader.load(head, {
      expanded: true,
      domParser: new DOMParser({ onError: () => undefined }) as never,
      includeTags: { exif: true, xmp: true, icc: true },
    });
  } catch {
    return null;
  }
  const iptc = jpegIptc(head);
  if (iptc === null) return null;
  const exif = (tags.exif ?? {}) as ExifTags;
  const xmp = (tags.xmp ?? {}) as Record<string, XmpTag>;
  const has = (name: string) => (exif as Record<string, unknown>)[name] !== undefined;
  if (XMP_ALSO_IN_EXIF.some(([inXmp, inExif]) => xmp[inXmp] !== undefined && !has(inExif))) return null;
  if (XMP_LEFT_TO_EXIFTOOL.some((name) => xmp[name] !== undefined)) return null;
  // A lens only the maker notes name: ExifTool's LensID looks it up in its tables.
  if (!has('LensModel') && has('MakerNote')) return null;
  // Which of IPTC's and XMP's dates ExifTool calls "DateCreated" when both are there: left to it.
  if (iptc?.values.DateCreated !== undefined && xmp.DateCreated !== undefined) return null;
  return composeTags(exif, xmp, iptc, tags.icc);
}

function composeTags(
  exif: ExifTags,
  xmp: Record<string, XmpTag>,
  iptc: JpegIptc | undefined,
  icc: ExpandedTags['icc'],
): ReadTags {
  const e = (name: string) => exifText(exif, name);
  const x = (name: string) => xmpValue(xmp[name]);
  const out: ReadTags = {};
  const put = (name: string, value: unknown) => {
    if (value !== undefined && !(Array.isArray(value) && value.length === 0)) out[name] = value;
  };
  put('Make', e('Make'));
  put('Model', e('Model'));
  put('LensModel', e('LensModel'));
  const dateTimeOriginal = subSecDate(
    e('DateTimeOriginal'),
    e('SubSecTimeOriginal'),
    e('OffsetTimeOriginal'),
  );
  put('SubSecDateTimeOriginal', dateTimeOriginal);
  // MWG DateTimeOriginal: EXIF's, else XMP-photoshop:DateCreated or IPTC's; CreateDate: EXIF's, else XMP-xmp's or IPTC's.
  put('DateTimeOriginal', mwgDate(dateTimeOriginal, iptc, ['DateCreated', 'TimeCreated'], x('DateCreated')));
  put('OffsetTimeOriginal', e('OffsetTimeOriginal'));
  const createDate = subSecDate(e('DateTimeDigitized'), e('SubSecTimeDigitized'), e('OffsetTimeDigitized'));
  put(
    'CreateDate',
    mwgDate(createDate, iptc, ['DigitalCreationDate', 'DigitalCreationTime'], x('CreateDate')),
  );
  put('OffsetTimeDigitized', e('OffsetTimeDigitized'));
  put('DateCreated', iptcDate(iptc?.values.DateCreated) ?? x('DateCreated'));
  const gps = exif as Record<string, { value: unknown; description: unknown } | undefined>;
  const latitude = number(gps.GPSLatitude?.description);
  const longitude = number(gps.GPSLongitude?.description);
  if (latitude !== undefined)
    put('GPSLatitude', exifText(exif, 'GPSLatitudeRef') === 'S' ? -latitude : latitude);
  if (longitude !== undefined)
    put('GPSLongitude', exifText(exif, 'GPSLongitudeRef') === 'W' ? -longitude : longitude);
  put('Orientation', number(gps.Orientation?.value));
  put('Title', x('title'));
  put('ObjectName', iptc?.values.ObjectName);
  const description = e('ImageDescription');
  put('Description', mwg(description, iptc, 'Caption-Abstract', x('description'), 2000));
  put('ImageDescription', description);
  put('Caption-Abstract', iptc?.values['Caption-Abstract']);
  const artist = e('Artist');
  const creator = mwg(artist, iptc, 'By-line', x('creator'), 32);
  put('Creator', creator === artist && artist !== undefined ? artistList(artist) : creator);
  put('Artist', artist === undefined ? undefined : artistList(artist));
  put('By-line', iptc?.values['By-line']);
  put('Copyright', mwg(e('Copyright'), iptc, 'CopyrightNotice', x('rights'), 128));
  put('Rights', x('rights'));
  put('CopyrightNotice', iptc?.values.CopyrightNotice);
  put('UsageTerms', x('UsageTerms'));
  put('Keywords', mwg(undefined, iptc, 'Keywords', x('subject'), 64));
  put('Subject', x('subject'));
  const rating = x('Rating');
  put(
    'Rating',
    typeof rating === 'string' && rating.trim() !== '' ? Number(rating) : number(gps.Rating?.value),
  );
  put('Label', x('Label'));
  put('ProfileDescription', icc?.['ICC Description']?.value);
  put('ColorSpaceData', icc?.['Color Space']?.value);
  for (const name of ['DamFileId', 'DamArticleNumber', 'DamDimensionTags', 'DamSignature'])
    put(name, x(name));
  return out;
}
