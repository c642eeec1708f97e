import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `.br` (quality 11) and `.gz` (level 9) beside every script, style sheet and page of the
 * build, which the server sends as they are (`preCompressed` of @fastify/static): the highest
 * compression costs nothing per request (issue 12 goal 4). Files under 1 KB stay plain.
 */
function precompress(): Plugin {
  return {
    name: 'dam:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      const files = Object.keys(bundle).filter((file) => /\.(js|css|html|svg|json)$/.test(file));
      await Promise.all(
        files.map(async (file) => {
          const data = await fs.readFile(path.join(dir, file));
          if (data.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
            gzip(data, { level: 9 }),
          ]);
          await Promise.all([
            fs.writeFile(path.join(dir, `${file}.br`), br),
            fs.writeFile(path.join(dir, `${file}.gz`), gz),
          ]);
        }),
      );
    },
  };
}

const api = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    proxy: { '/ske-api': api, '/security-api': api, '/open': api, '/health': api },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The budget check (scripts/check-bundle-size.mjs) reads which chunks each page needs here.
    manifest: true,
    rolldownOptions: { treeshake: { manualPureFunctions: ['z'] } },
  },
});
