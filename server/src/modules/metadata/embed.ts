import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WriteTags } from 'exiftool-vendored';

/** Formats a download's file carries the platform's XMP in (by their bytes, media/sniff.ts names). */
export const EMBEDDABLE_CONTENT = new Set(['jpeg', 'png', 'tiff', 'psd']);
/** Of those, the ones with an IPTC-IIM block (PNG has none that readers agree on). */
const WITH_IPTC = new Set(['jpeg', 'tiff', 'psd']);

/** What the platform knows of a file, written into its downloads. */
export interface EmbedFacts {
  fileId: number;
  /** The file's name (its title). */
  name: string;
  artNum: string | null;
  /** The file's tags, each with its dimension. */
  tags: Array<{ dimension: string; tag: string }>;
  /** Creator, copyright, usage terms and keywords as the record carried them when uploaded. */
  creator: string | null;
  copyright: string | null;
  usageTerms: string | null;
  keywords: string[];
  /** Validity (SPEC §4), `YYYY-MM-DD`. */
  validFrom: string | null;
  validTo: string | null;
}

/**
 * The signature of a download's platform marks: a file uploaded again is linked to its original
 * only when the id and article number it carries were written by this platform (anyone can type
 * an XMP field; no one else has the secret).
 */
export function platformSignature(secret: string, fileId: string, articleNumbers: readonly string[]): string {
  return createHmac('sha256', secret)
    .update(`${fileId}\n${articleNumbers.join('\n')}`)
    .digest('base64url')
    .slice(0, 32);
}

export function signatureHolds(
  secret: string,
  fileId: string,
  articleNumbers: readonly string[],
  signature: string,
): boolean {
  const expected = Buffer.from(platformSignature(secret, fileId, articleNumbers));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

const exifDate = (date: string) => date.replaceAll('-', ':');
/** IPTC-IIM fields have byte limits (ExifTool cuts longer values with -m): XMP holds the whole text. */
const iimCut = (value: string, bytes: number) => {
  let out = '';
  for (const char of value) {
    if (Buffer.byteLength(out + char) > bytes) break;
    out += char;
  }
  return out;
};

/**
 * The tags a download writes (ExifTool names, group first): XMP for every embeddable format, IPTC
 * too where the format has it. Keywords keep the file's own and add its tag names; tags by
 * dimension go as Lightroom's hierarchical subjects (`Colour|White`) and in the platform's namespace.
 */
export function platformTags(facts: EmbedFacts, contentFormat: string, secret: string): WriteTags {
  const fileId = String(facts.fileId);
  const articleNumbers = facts.artNum ? [facts.artNum] : [];
  const hierarchical = facts.tags.map(({ dimension, tag }) => `${dimension}|${tag}`);
  const keywords = [...new Set([...facts.keywords, ...facts.tags.map(({ tag }) => tag)])];
  const tags: Record<string, unknown> = {
    'XMP-dc:Title': facts.name,
    'XMP-dc:Subject': keywords,
    'XMP-lr:HierarchicalSubject': hierarchical,
    'XMP-skdam:DamFileId': fileId,
    'XMP-skdam:DamArticleNumber': articleNumbers,
    'XMP-skdam:DamDimensionTags': hierarchical,
    'XMP-skdam:DamSignature': platformSignature(secret, fileId, articleNumbers),
    'XMP-plus:ImageSupplierImageID': fileId,
  };
  if (facts.artNum) tags['XMP-dc:Identifier'] = facts.artNum;
  if (facts.creator) tags['XMP-dc:Creator'] = [facts.creator];
  if (facts.copyright) {
    tags['XMP-dc:Rights'] = facts.copyright;
    tags['XMP-xmpRights:Marked'] = true;
  }
  if (facts.usageTerms) tags['XMP-xmpRights:UsageTerms'] = facts.usageTerms;
  if (facts.validFrom) tags['XMP-plus:LicenseStartDate'] = exifDate(facts.validFrom);
  if (facts.validTo) tags['XMP-plus:LicenseEndDate'] = exifDate(facts.validTo);
  if (WITH_IPTC.has(contentFormat)) {
    tags['IPTC:CodedCharacterSet'] = 'UTF8';
    tags['IPTC:ObjectName'] = iimCut(facts.name, 64);
    tags['IPTC:Keywords'] = keywords.map((keyword) => iimCut(keyword, 64)).filter(Boolean);
    if (facts.creator) tags['IPTC:By-line'] = iimCut(facts.creator, 32);
    if (facts.copyright) tags['IPTC:CopyrightNotice'] = iimCut(facts.copyright, 128);
    if (facts.usageTerms) tags['IPTC:SpecialInstructions'] = iimCut(facts.usageTerms, 256);
    if (facts.validTo) tags['IPTC:ExpirationDate'] = exifDate(facts.validTo);
  }
  return tags as WriteTags;
}
