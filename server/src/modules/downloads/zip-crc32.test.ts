import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { buffer as readAll } from 'node:stream/consumers';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ZipFile } from 'yazl';
import { zipChecksum } from './zip';

/**
 * zip.ts points yazl's copy of buffer-crc32 at @node-rs/crc32's SIMD CRC-32 (the JavaScript one
 * runs at a twentieth of the speed). Nothing else would notice if a yazl upgrade quietly undid it:
 * the checksums stay right, only slower. These prove the function yazl calls is the native one
 * (checked against zlib's), and that yazl calls it.
 */
type Crc32 = { unsigned: (data: Buffer, previous?: number) => number };
const yazlRequire = createRequire(createRequire(import.meta.url).resolve('yazl'));
const yazlCrc32 = yazlRequire('buffer-crc32') as Crc32;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("yazl's CRC-32", () => {
  it('is the native one', () => {
    const data = randomBytes(256 * 1024);
    const head = data.subarray(0, 1000);
    const tail = data.subarray(1000);
    expect(yazlCrc32.unsigned(data)).toBe(zlib.crc32(data));
    expect(yazlCrc32.unsigned(tail, yazlCrc32.unsigned(head))).toBe(zlib.crc32(data));
    expect(yazlCrc32.unsigned).toBe(zipChecksum);
  });

  it('is the one yazl checksums a streamed entry with', async () => {
    const calls = vi.spyOn(yazlCrc32, 'unsigned');
    const data = randomBytes(3 * 64 * 1024 + 17);
    const zip = new ZipFile();
    zip.addReadStream(Readable.from([data.subarray(0, 70_000), data.subarray(70_000)]), 'a.bin', {
      compress: false,
    });
    zip.end();
    const bytes = await readAll(zip.outputStream);
    expect(calls).toHaveBeenCalled();
    // The data descriptor after the stored bytes carries the CRC yazl computed.
    const descriptor = bytes.indexOf(
      Buffer.from([0x50, 0x4b, 0x07, 0x08]),
      30 + 'a.bin'.length + data.length,
    );
    expect(descriptor).toBeGreaterThan(0);
    expect(bytes.readUInt32LE(descriptor + 4)).toBe(zlib.crc32(data));
  });
});
