import { createRequire } from 'node:module';

/** How many malloc arenas a server or worker process keeps (glibc's default: 8 per core). */
export const MALLOC_ARENAS = 2;
// mallopt's parameter number for the arena limit (glibc malloc.h).
const M_ARENA_MAX = -8;

/**
 * Caps glibc's malloc arenas for this process, as MALLOC_ARENA_MAX=2 would at start: each thread
 * that allocates (libuv's pool, libvips' workers decoding images) otherwise gets an arena of its
 * own, and memory freed in one is not given back while the others are in use, so the server's
 * resident memory climbs with every batch of thumbnails (issue 12 goal 8; sharp's and Node's own
 * advice for glibc). glibc reads MALLOC_ARENA_MAX only when a process starts, and `npm start`
 * cannot set its own environment, so the limit is set with mallopt, before the threads start. A
 * limit set in the environment (MALLOC_ARENA_MAX or GLIBC_TUNABLES) is left as it is; where there
 * is no glibc (another platform, musl) loading it fails and nothing is done. Answers the limit
 * set, or null when none was.
 */
export function capMallocArenas(env: NodeJS.ProcessEnv = process.env): number | null {
  if (
    process.platform !== 'linux' ||
    env.MALLOC_ARENA_MAX ||
    env.GLIBC_TUNABLES?.includes('glibc.malloc.arena_max')
  )
    return null;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const mallopt = koffi.load('libc.so.6').func('int mallopt(int, int)');
    return mallopt(M_ARENA_MAX, MALLOC_ARENAS) === 1 ? MALLOC_ARENAS : null;
  } catch {
    // No glibc, or no foreign-function library for this platform: glibc's default, if any.
    return null;
  }
}
