import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PLATFORM_XMP_NAMESPACE, PLATFORM_XMP_PREFIX } from '@dam/contract';
import { ExifTool, exiftoolPath, type WriteTags } from 'exiftool-vendored';

/** A read of one file may take this long before its ExifTool process is killed (a hostile file). */
const READ_TIMEOUT_MS = 20_000;
/** A write copies the whole file (a 2 GB PSD on a slow disk): longer, still bounded. */
const WRITE_TIMEOUT_MS = 120_000;
/** The address space one ExifTool process may take (prlimit): a decoder bomb dies, not the host. */
const PROCESS_MEMORY_BYTES = 768 * 1024 * 1024;
/** ExifTool processes are recycled after this many files (Perl's memory only grows). */
const TASKS_PER_PROCESS = 200;

/**
 * The tags the platform keeps (extract.ts), and only those: ExifTool formats, filters and sends
 * every tag it is asked for, and `-all` cost the media queue twice the CPU of this list (issue 42's
 * < 10 % budget; docs/decisions.md). `#` reads a tag as a number rather than ExifTool's words: GPS
 * as signed degrees, orientation 1–8, durations in seconds, counts. With `-use MWG` the composite
 * Keywords, Creator, Description, Copyright and DateTimeOriginal settle EXIF, IPTC and XMP
 * disagreeing the way the Metadata Working Group says.
 */
const READ_TAGS = [
  'Make',
  'Model',
  'LensModel',
  'LensID',
  'Lens',
  'SubSecDateTimeOriginal',
  'DateTimeOriginal',
  'OffsetTimeOriginal',
  'CreateDate',
  'OffsetTimeDigitized',
  'DateCreated',
  'MediaCreateDate',
  'GPSLatitude#',
  'GPSLongitude#',
  'Orientation#',
  'Title',
  'ObjectName',
  'Description',
  'ImageDescription',
  'Caption-Abstract',
  'Creator',
  'Artist',
  'By-line',
  'Author',
  'Copyright',
  'Rights',
  'CopyrightNotice',
  'UsageTerms',
  'Keywords',
  'Subject',
  'Rating#',
  'Label',
  'ProfileDescription',
  'ColorSpaceData',
  'ColorMode',
  'LayerCount#',
  'PageCount#',
  'Duration#',
  'CompressorID',
  'CodecID',
  'VideoCodec',
  'CompressorName',
  'VideoFrameRate#',
  `XMP-${PLATFORM_XMP_PREFIX}:all`,
].map((tag) => `-${tag}`);

/**
 * `-fast`: ExifTool stops before a file's image data. `QuickTimeUTC`: a video's dates are UTC (as
 * the QuickTime format says), given with their offset.
 */
const READ_ARGS = ['-fast', '-api', 'QuickTimeUTC', ...READ_TAGS];

/** What ExifTool read: tag name → value (text, number or list), as its JSON gives them. */
export type ReadTags = Record<string, unknown>;

/**
 * The platform's own XMP namespace (PLATFORM_XMP_NAMESPACE) for ExifTool, so downloads can carry
 * the file id, article numbers and tags by dimension. Reading needs none (ExifTool decodes an
 * unknown namespace by its prefix); writing does.
 */
const CONFIG = `%Image::ExifTool::UserDefined = (
  'Image::ExifTool::XMP::Main' => {
    ${PLATFORM_XMP_PREFIX} => { SubDirectory => { TagTable => 'Image::ExifTool::UserDefined::${PLATFORM_XMP_PREFIX}' } },
  },
);
%Image::ExifTool::UserDefined::${PLATFORM_XMP_PREFIX} = (
  GROUPS => { 0 => 'XMP', 1 => 'XMP-${PLATFORM_XMP_PREFIX}', 2 => 'Image' },
  NAMESPACE => { ${PLATFORM_XMP_PREFIX} => '${PLATFORM_XMP_NAMESPACE}' },
  WRITABLE => 'string',
  DamFileId => { },
  DamArticleNumber => { List => 'Bag' },
  DamDimensionTags => { List => 'Bag' },
  DamSignature => { },
);
1;
`;

/**
 * ExifTool 13 (exiftool-vendored runs the Perl script that npm installed with the system's perl)
 * kept running with `-stay_open`: one process reads, another writes, each started on first use.
 * Every process runs under `prlimit` (address space) and every task under a time-out; a file that
 * hangs or bloats its process kills that process, and the next file gets a fresh one. The reader
 * never retries (the media job counts its own attempts). `end()` stops both (process shutdown).
 */
export class EmbeddedMetadataTool {
  private reader: Promise<ExifTool> | null = null;
  private writer: Promise<ExifTool> | null = null;
  private configFile: Promise<string> | null = null;
  private ended = false;

  /** The tags of READ_TAGS the file holds, unconverted (extract.ts reads dates itself). */
  async read(file: string): Promise<ReadTags> {
    // The promise is kept, not the instance: two first reads at once start one process, not two.
    this.reader ??= this.start(READ_TIMEOUT_MS);
    return (await this.reader).readRaw(file, { readArgs: READ_ARGS, useMWG: true });
  }

  /**
   * Writes `tags` into `file` in place (the caller's own temporary copy: ExifTool writes a new file
   * and renames it over the old one, leaving no `_original`). `deleteFirst` removes every
   * EXIF, GPS, XMP and IPTC field before, keeping the ICC profile.
   */
  async write(file: string, tags: WriteTags, options: { deleteFirst?: boolean } = {}): Promise<void> {
    this.writer ??= this.start(WRITE_TIMEOUT_MS);
    // The wrapper puts the tags before the arguments, and ExifTool applies them in that order:
    // deleting comes first as a tag of its own (`-all=`), then what to spare and what to write.
    // `--icc_profile:all` keeps the colours' meaning; `-CommonIFD0=` removes the TIFF fields
    // (Artist, Copyright, Make, Model…) that `-all=` cannot remove from a TIFF's first directory.
    const written = options.deleteFirst ? ({ all: null, ...tags } as WriteTags) : tags;
    const args = options.deleteFirst
      ? ['--icc_profile:all', '-CommonIFD0=', '-overwrite_original']
      : ['-overwrite_original'];
    await (await this.writer).write(file, written, { writeArgs: args, ignoreMinorErrors: true });
  }

  /** Whether `end()` was called: reads then fail, and that is no fault of the file. */
  get stopped(): boolean {
    return this.ended;
  }

  async end(): Promise<void> {
    this.ended = true;
    const started = [this.reader, this.writer].filter((tool) => tool !== null);
    await Promise.all(started.map(async (tool) => (await tool.catch(() => null))?.end()));
    this.reader = null;
    this.writer = null;
  }

  private async start(taskTimeoutMillis: number): Promise<ExifTool> {
    if (this.ended) throw new Error('the metadata tool was stopped');
    this.configFile ??= writeConfig();
    const config = await this.configFile;
    const args = ['-config', config, '-stay_open', 'True', '-@', '-'];
    return new ExifTool({
      maxProcs: 1,
      maxTasksPerProcess: TASKS_PER_PROCESS,
      taskTimeoutMillis,
      taskRetries: 0,
      geolocation: false,
      exiftoolArgs: args,
      processFactory: async () => spawnLimited(await exiftoolPath(), args),
    });
  }
}

/** The namespace's configuration, written once per process to a file of its own. */
async function writeConfig(): Promise<string> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dam-exiftool-'));
  const file = path.join(dir, 'platform.config');
  await fsp.writeFile(file, CONFIG);
  return file;
}

const PRLIMIT = ['/usr/bin/prlimit', '/bin/prlimit'].find((candidate) => fs.existsSync(candidate));

/** `perl exiftool <args>`, under prlimit where the system has it (util-linux). */
function spawnLimited(script: string, args: string[]): ChildProcess {
  const command = ['perl', script, ...args];
  const options = { stdio: 'pipe' as const, env: { PATH: process.env.PATH, LANG: 'C' }, detached: false };
  if (!PRLIMIT) return spawn(command[0]!, command.slice(1), options);
  return spawn(PRLIMIT, [`--as=${PROCESS_MEMORY_BYTES}`, '--', ...command], options);
}
