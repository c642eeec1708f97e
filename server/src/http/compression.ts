import zlib from 'node:zlib';
import type { FastifyCompressOptions } from '@fastify/compress';

/**
 * How JSON answers are compressed on the fly (issue 12 goal 4). Only the endpoint table's JSON
 * calls opt in (`route()`): media, downloads and zips are never compressed again (they are
 * already, and on-the-fly encoding would break their ranges and lengths). Brotli at quality 4 costs
 * about what gzip does and is ~15 % smaller; the built web app is served pre-compressed at the
 * highest quality instead (web/vite.config.ts, `preCompressed` in app.ts). Request bodies are
 * never decompressed: an upload or a call arrives as sent, and no one can post a zip bomb.
 */
export const COMPRESSION: FastifyCompressOptions = {
  global: false,
  encodings: ['br', 'gzip'],
  threshold: 1024,
  brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
};
