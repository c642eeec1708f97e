import { createRequire } from 'node:module';

/** How many malloc arenas a server or worker process keeps (glibc's default: 8 per core). */
export const MALLOC_ARENAS = 2;
// mallopt's parameter number for the arena limit (glibc malloc.h).
const M_ARENA_MAX = -8;

/**
 * Caps glibc's malloc arenas for this process, as MALLOC_ARENA_MAX=2 does: each thread that
 * allocates (libuv's pool, libvips' workers decoding images, V8's compiler threads) otherwise gets
 * an arena of its own, and memory freed in one is not given back while the others are in use, so
 * the server's resident memory climbs with every batch of thumbnails (issue 12 goal 8; sharp's and
 * Node's own advice for glibc). glibc reads MALLOC_ARENA_MAX only when a process starts, and by
 * the time any JavaScript runs Node's own threads have taken arenas already (six on Node 24, whose
 * compiler threads start at once), so the process replaces itself with the same program and the
 * variable set (`process.execve`: same process id, no wrapper; Node ≥ 22.15). This call then does
 * not return. A limit set in the environment (MALLOC_ARENA_MAX or GLIBC_TUNABLES) is left as it
 * is, and answers null, as does a platform without glibc. Without `process.execve` the limit is
 * set with mallopt instead, which caps only the arenas made after it; that answers the limit set.
 */
export function capMallocArenas(env: NodeJS.ProcessEnv = process.env): number | null {
  if (
    process.platform !== 'linux' ||
    env.MALLOC_ARENA_MAX ||
    env.GLIBC_TUNABLES?.includes('glibc.malloc.arena_max') ||
    !glibc()
  )
    return null;
  if (typeof process.execve === 'function') {
    process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
      ...env,
      MALLOC_ARENA_MAX: String(MALLOC_ARENAS),
    });
  }
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof import('koffi');
    const mallopt = koffi.load('libc.so.6').func('int mallopt(int, int)');
    return mallopt(M_ARENA_MAX, MALLOC_ARENAS) === 1 ? MALLOC_ARENAS : null;
  } catch {
    // No foreign-function library for this platform: glibc's default.
    return null;
  }
}

/** Whether this Node runs on glibc (not musl): only glibc reads MALLOC_ARENA_MAX. */
function glibc(): boolean {
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  return Boolean(report.header?.glibcVersionRuntime);
}
