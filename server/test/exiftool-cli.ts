import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/**
 * Debian's own ExifTool (`libimage-exiftool-perl`, installed by scripts/setup-system.sh), the
 * independent writer and reader the metadata tests compare the platform with: not the copy the
 * platform runs (exiftool-vendored).
 */
export const DEBIAN_EXIFTOOL = '/usr/bin/exiftool';

async function inTemp<T>(extension: string, bytes: Buffer, work: (file: string) => Promise<T>): Promise<T> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'dam-exiftool-test-'));
  const file = path.join(dir, `file.${extension}`);
  try {
    await fsp.writeFile(file, bytes);
    return await work(file);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** `bytes` with ExifTool's `args` (`-XMP-dc:Title=…`) written into them. */
export async function writeWithExiftool(bytes: Buffer, extension: string, args: string[]): Promise<Buffer> {
  return inTemp(extension, bytes, async (file) => {
    await exec(DEBIAN_EXIFTOOL, ['-q', '-q', '-overwrite_original', '-charset', 'iptc=UTF8', ...args, file]);
    return fsp.readFile(file);
  });
}

/** Every tag of `bytes` as ExifTool prints them: `-G1` names (`XMP-dc:Title`), `-n` numbers. */
export async function readWithExiftool(bytes: Buffer, extension: string): Promise<Record<string, unknown>> {
  return inTemp(extension, bytes, async (file) => {
    const { stdout } = await exec(DEBIAN_EXIFTOOL, ['-j', '-G1', '-n', '-struct', file]);
    return (JSON.parse(stdout) as Array<Record<string, unknown>>)[0] ?? {};
  });
}
