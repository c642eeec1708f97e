import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { buffer as readAll } from 'node:stream/consumers';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ZipFile } from 'yazl';
import './zip';

/**
 * zip.ts points yazl's copy of buffer-crc32 at zlib's native CRC-32 (a fourth of the zip speed
 * otherwise). Nothing else would notice if a yazl or Node upgrade quietly undid it: the checksums
 * stay right, only slower. These prove the function yazl calls is Node's, and that yazl calls it.
 */
type Crc32 = { unsigned: (data: Buffer, previous?: number) => number };
const yazlRequire = createRequire(createRequire(import.meta.url).resolve('yazl'));
const yazlCrc32 = yazlRequire('buffer-crc32') as Crc32;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("yazl's CRC-32", () => {
  it('is zlib’s native one', () => {
    const data = randomBytes(256 * 1024);
    const head = data.subarray(0, 1000);
    const tail = data.subarray(1000);
    expect(yazlCrc32.unsigned(data)).toBe(zlib.crc32(data));
    expect(yazlCrc32.unsigned(tail, yazlCrc32.unsigned(head))).toBe(zlib.crc32(data));
    // A fingerprint of the native function: it validates its seed as a uint32 (the table-driven
    // JavaScript one folds any number into 32 bits without complaint).
    expect(() => yazlCrc32.unsigned(head, -1)).toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }));
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
