import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';
import yauzl from 'yauzl';
import { UnreadableWorkbookError, WORKBOOK_LIMITS, WorkbookLimitError } from './workbook-limits';
import { newTally, type PartRole, type WorkbookTally, XmlPartScanner } from './workbook-xml-scan';

/**
 * Refuses a workbook before exceljs sees it when it would unpack past WORKBOOK_LIMITS (zip bombs,
 * millions of shared strings, a cell of hundreds of MB). Throws WorkbookLimitError (SESK_08) or
 * UnreadableWorkbookError; holds nothing but the upload's bytes and counters.
 *
 * 1. The central directory (yauzl): the number of entries and the sizes they declare.
 * 2. The entries exactly as exceljs's unzipper will meet them, walking the local headers from the
 *    start: it never reads the central directory, so a zip whose local entries differ from it
 *    (other names, hidden entries, other lengths) is refused as unreadable.
 * 3. Every one of those entries inflated as a stream, as unzipper will, counting the bytes (the
 *    declared sizes may lie) and scanning the XML exceljs parses (workbook-xml-scan.ts); the
 *    stream is destroyed as soon as a bound is passed.
 */
export async function guardWorkbook(bytes: Buffer): Promise<void> {
  const declared = await centralDirectoryNames(bytes);
  const entries = walkEntries(bytes);
  const walked = entries.map((entry) => entry.name).sort();
  if (walked.length !== declared.length || walked.some((name, i) => name !== declared[i]))
    throw new UnreadableWorkbookError('the zip entries differ from its central directory');
  const tally = newTally();
  const inflated = { total: 0 };
  for (const entry of entries) await inflateEntry(bytes, entry, tally, inflated);
}

type Role = PartRole | 'drained';

/** What exceljs's WorkbookReader does with an entry (workbook-reader.js `parse`); the rest is drained. */
export function roleOf(name: string): Role {
  switch (name) {
    case 'xl/workbook.xml':
    case 'xl/_rels/workbook.xml.rels':
    case 'xl/styles.xml':
      return 'model';
    case 'xl/sharedStrings.xml':
      return 'sharedStrings';
    case '_rels/.rels':
      return 'drained';
  }
  return /xl\/worksheets\/sheet\d+[.]xml/.test(name) ? 'sheet' : 'drained';
}

const partBound = (role: Role) =>
  role === 'model'
    ? { max: WORKBOOK_LIMITS.modelPartBytes, limit: 'modelPartBytes' as const }
    : { max: WORKBOOK_LIMITS.partBytes, limit: 'partBytes' as const };

/** The names of the central directory (sorted), after checking its count and declared sizes. */
function centralDirectoryNames(bytes: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, decodeStrings: false }, (error, zip) => {
      if (error || !zip) return reject(new UnreadableWorkbookError(error?.message ?? 'not a zip'));
      const fail = (reason: Error) => {
        zip.close();
        reject(reason);
      };
      if (zip.entryCount > WORKBOOK_LIMITS.entries) return fail(new WorkbookLimitError('entries'));
      const names: string[] = [];
      let total = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        // decodeStrings: false gives the name's bytes; unzipper reads them as UTF-8.
        const name = (entry.fileName as unknown as Buffer).toString('utf8');
        const bound = partBound(roleOf(name));
        total += entry.uncompressedSize;
        if (entry.uncompressedSize > bound.max) return fail(new WorkbookLimitError(bound.limit));
        if (total > WORKBOOK_LIMITS.totalBytes) return fail(new WorkbookLimitError('totalBytes'));
        names.push(name);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names.sort()));
      zip.on('error', (err: Error) => fail(new UnreadableWorkbookError(err.message)));
      zip.readEntry();
    });
  });
}

interface WalkedEntry {
  name: string;
  method: number;
  /** The compressed bytes: [start, end) of the upload. */
  start: number;
  end: number;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const DATA_DESCRIPTOR = Buffer.from([0x50, 0x4b, 0x07, 0x08]);
const ZIP64_SIZE = 0xffffffff;

/**
 * The entries unzipper 0.10's Parse (what exceljs's stream reader reads with) emits, found as it
 * finds them: local header after local header from byte 0; an entry without sizes (flag 8) ends
 * at the first data descriptor signature; central directory records are skipped; the end record
 * or any other signature after them ends the walk.
 */
function walkEntries(bytes: Buffer): WalkedEntry[] {
  const entries: WalkedEntry[] = [];
  const need = (end: number) => {
    if (end > bytes.length) throw new UnreadableWorkbookError('the zip ends inside an entry');
  };
  let at = 0;
  let inCentralDirectory = false;
  while (at < bytes.length) {
    need(at + 4);
    const signature = bytes.readUInt32LE(at);
    if (signature === LOCAL_HEADER) {
      need(at + 30);
      const flags = bytes.readUInt16LE(at + 6);
      const compressed = bytes.readUInt32LE(at + 18);
      const nameEnd = at + 30 + bytes.readUInt16LE(at + 26);
      const dataStart = nameEnd + bytes.readUInt16LE(at + 28);
      need(dataStart);
      if (compressed === ZIP64_SIZE || bytes.readUInt32LE(at + 22) === ZIP64_SIZE)
        throw new UnreadableWorkbookError('zip64 entries are not read');
      let end = dataStart + compressed;
      let next = end;
      if (flags & 0x08 && compressed === 0) {
        end = bytes.indexOf(DATA_DESCRIPTOR, dataStart);
        if (end === -1) throw new UnreadableWorkbookError('an entry without its data descriptor');
        next = end + 16;
      }
      need(next);
      const name = bytes.toString('utf8', at + 30, nameEnd);
      entries.push({ name, method: bytes.readUInt16LE(at + 8), start: dataStart, end });
      if (entries.length > WORKBOOK_LIMITS.entries) throw new WorkbookLimitError('entries');
      at = next;
    } else if (signature === CENTRAL_HEADER) {
      inCentralDirectory = true;
      need(at + 46);
      at += 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    } else if (signature === END_OF_CENTRAL_DIRECTORY || inCentralDirectory) {
      break;
    } else {
      throw new UnreadableWorkbookError('not a zip entry where one should start');
    }
  }
  return entries;
}

const SLICE = 64 * 1024;

function* slices(data: Buffer): Generator<Buffer> {
  for (let at = 0; at < data.length; at += SLICE) yield data.subarray(at, at + SLICE);
}

/** Inflates one entry as unzipper does (any method but 0 is inflated), counting and scanning. */
async function inflateEntry(
  bytes: Buffer,
  entry: WalkedEntry,
  tally: WorkbookTally,
  inflated: { total: number },
): Promise<void> {
  const role = roleOf(entry.name);
  const bound = partBound(role);
  const scanner = role === 'drained' ? null : new XmlPartScanner(role, tally);
  let part = 0;
  const take = (chunk: Buffer) => {
    part += chunk.length;
    inflated.total += chunk.length;
    if (part > bound.max) throw new WorkbookLimitError(bound.limit);
    if (inflated.total > WORKBOOK_LIMITS.totalBytes) throw new WorkbookLimitError('totalBytes');
    scanner?.write(chunk);
  };
  const data = bytes.subarray(entry.start, entry.end);
  if (entry.method === 0) {
    for (const chunk of slices(data)) take(chunk);
    return;
  }
  const counter = new Writable({
    write(chunk: Buffer, _encoding, done) {
      try {
        take(chunk);
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
  try {
    // Destroys the inflater (no byte more is inflated) as soon as `take` throws.
    await pipeline(Readable.from(slices(data)), createInflateRaw(), counter);
  } catch (error) {
    if (error instanceof WorkbookLimitError || error instanceof UnreadableWorkbookError) throw error;
    throw new UnreadableWorkbookError(error instanceof Error ? error.message : String(error));
  }
}
