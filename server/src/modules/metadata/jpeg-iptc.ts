import { createHash } from 'node:crypto';
import { jpegSegments } from './jpeg-head';

/** IPTC-IIM datasets (record 2) the platform keeps, by number, as ExifTool names them. */
const DATASETS: Record<number, string> = {
  5: 'ObjectName',
  25: 'Keywords',
  55: 'DateCreated',
  60: 'TimeCreated',
  62: 'DigitalCreationDate',
  63: 'DigitalCreationTime',
  80: 'By-line',
  116: 'CopyrightNotice',
  120: 'Caption-Abstract',
};
/** Datasets that may repeat: ExifTool gives them as lists. */
const REPEATABLE = new Set([25, 80]);
/** Dataset 1:90 naming UTF-8 (ESC % G). */
const UTF8_MARK = Buffer.from([0x1b, 0x25, 0x47]);

/** A JPEG's IPTC-IIM as MWG sees it: the values, and whether XMP may stand for them. */
export interface JpegIptc {
  values: Record<string, string | string[]>;
  /** MWG's test: no IPTCDigest stored, or the stored one is the MD5 of the IPTC data. */
  inSyncWithXmp: boolean;
}

/** The Photoshop resources (8BIM) of one APP13 segment's data, by id. */
function photoshopResources(data: Buffer): Map<number, Buffer> | null {
  const resources = new Map<number, Buffer>();
  let at = 0;
  while (at + 12 <= data.length && data.toString('latin1', at, at + 4) === '8BIM') {
    const id = data.readUInt16BE(at + 4);
    const nameLength = data[at + 6]!;
    at += 6 + ((nameLength + 2) & ~1);
    if (at + 4 > data.length) return null;
    const size = data.readUInt32BE(at);
    at += 4;
    if (at + size > data.length) return null;
    if (!resources.has(id)) resources.set(id, data.subarray(at, at + size));
    at += size + (size & 1);
  }
  return resources;
}

/** IPTC-IIM data as ExifTool decodes it, or null when it would not decode it the same way (a Latin text). */
function datasets(iim: Buffer): Record<string, string | string[]> | null {
  const raw: Array<[number, Buffer]> = [];
  let utf8 = false;
  for (let at = 0; at + 5 <= iim.length; ) {
    if (iim[at] !== 0x1c) return null;
    const [record, dataset, length] = [iim[at + 1]!, iim[at + 2]!, iim.readUInt16BE(at + 3)];
    // An extended length (high bit): no text dataset the platform keeps is that long.
    if (length & 0x8000) return null;
    const value = iim.subarray(at + 5, at + 5 + length);
    at += 5 + length;
    if (record === 1 && dataset === 90) utf8 = value.equals(UTF8_MARK);
    if (record === 2 && DATASETS[dataset]) raw.push([dataset, value]);
  }
  const values: Record<string, string | string[]> = {};
  for (const [dataset, bytes] of raw) {
    // ExifTool reads IPTC without the UTF-8 mark as Windows Latin 1: left to it.
    if (!utf8 && bytes.some((byte) => byte >= 0x80)) return null;
    const text = bytes.toString('utf8').replace(/\0+$/, '');
    const name = DATASETS[dataset]!;
    if (!REPEATABLE.has(dataset)) values[name] ??= text;
    else values[name] = [...((values[name] as string[] | undefined) ?? []), text];
  }
  return values;
}

/**
 * The standard IPTC of a JPEG's segments (`head`: SOI to SOS): in the first APP13 "Photoshop 3.0"
 * segment's resource 0x0404, with its digest (0x0425). Undefined when there is none; null when it
 * is there in a form this reader leaves to ExifTool (several APP13 segments, a Latin text, damage).
 */
export function jpegIptc(head: Buffer): JpegIptc | undefined | null {
  const photoshop = jpegSegments(head)
    .filter(({ marker, data }) => marker === 0xed && data.toString('latin1', 0, 14) === 'Photoshop 3.0\0')
    .map(({ data }) => data);
  if (photoshop.length === 0) return undefined;
  if (photoshop.length > 1) return null;
  const resources = photoshopResources(photoshop[0]!.subarray(14));
  if (!resources) return null;
  const iim = resources.get(0x0404);
  if (!iim) return undefined;
  const values = datasets(iim);
  if (!values) return null;
  const stored = resources.get(0x0425);
  const current = createHash('md5').update(iim).digest();
  return { values, inSyncWithXmp: stored === undefined || stored.equals(current) };
}
