import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { OutputChunk, RolldownOutput } from 'rolldown';
import { build, defineConfig, type Plugin } from 'vite';
import { antdZeroRuntime } from './vite/antdZeroRuntime.ts';

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

const FIRST_PASS = 'DAM_CHUNKS_FIRST_PASS';
const source = (file: string) => path.resolve(import.meta.dirname, 'src', file);

/** The first view's chunks (see firstViewGroups): the name the bundler gives each. */
const GROUP_CHUNKS = { signIn: 'sign-in', ui: 'ui', layout: 'layout' } as const;
type FirstViewGroups = Record<keyof typeof GROUP_CHUNKS, Set<string>>;

/**
 * The signed-in layout's first view in a few chunks instead of a hundred (issue 12 goal 4). Left to
 * itself, the bundler gives every set of pages that share a module a chunk of its own: the folder
 * page needed 119 files, and a browser fetching six at a time from one server spent 0.6 s on them.
 *
 * A first build, kept in memory, says which modules end up in the chunks the first view loads (the
 * layout, the folder page and the home page, in AppShell): after tree-shaking, which the module
 * graph alone does not show (a library's index imports all of it). Those chunks become three:
 * `sign-in` what the sign-in page loads too, `ui` what the share visitor page and its viewer load
 * too (a few icons and helpers: they are drawn without Ant Design and AppShell, issue 39),
 * `layout` the rest. Each page so loads the same modules as before in fewer files. The entry's
 * own chunks, the other sign-in pages' and the pages' own modules (which the router loads by name)
 * stay as they were.
 */
async function firstViewGroups(): Promise<FirstViewGroups> {
  process.env[FIRST_PASS] = '1';
  let output: RolldownOutput;
  try {
    output = (await build({
      configFile: import.meta.filename,
      logLevel: 'silent',
      build: { write: false },
    })) as RolldownOutput;
  } finally {
    delete process.env[FIRST_PASS];
  }
  const chunks = output.output.filter((file): file is OutputChunk => file.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const of = (module: string) => {
    const chunk = chunks.find((each) => each.facadeModuleId === module);
    if (!chunk) throw new Error(`no chunk for ${module}`);
    return chunk;
  };
  /** The chunks `seeds` need before they run (their static imports, all the way down). */
  const loaded = (seeds: OutputChunk[]) => {
    const found = new Set<OutputChunk>();
    const visit = (chunk: OutputChunk) => {
      if (found.has(chunk)) return;
      found.add(chunk);
      for (const file of chunk.imports) visit(byFile.get(file) as OutputChunk);
    };
    for (const seed of seeds) visit(seed);
    return found;
  };
  const entry = loaded(chunks.filter((chunk) => chunk.isEntry));
  const signIn = loaded([of(source('features/login/LoginPage.tsx'))]);
  const otherSignIn = loaded(
    ['OAuthPage', 'ResetPasswordPage', 'ConfirmEmailPage'].map((name) =>
      of(source(`features/login/${name}.tsx`)),
    ),
  );
  const shell = of(source('app/AppShell.tsx'));
  const layout = loaded(
    ['layout/MainLayout.tsx', 'features/files/AllFilesPage.tsx', 'features/search/HomeIndex.tsx']
      .map((file) => of(source(file)))
      .concat(shell),
  );
  // With the viewer it opens: what it shares with the layout would otherwise load the layout's chunk.
  const visit = loaded(
    ['features/share/VisitPage.tsx', 'features/share/visit/VisitViewer.tsx'].map((file) => of(source(file))),
  );
  const pages = new Set(chunks.filter((chunk) => chunk.isDynamicEntry).map((chunk) => chunk.facadeModuleId));
  const groups: FirstViewGroups = { signIn: new Set(), ui: new Set(), layout: new Set() };
  for (const chunk of layout) {
    if (entry.has(chunk) || (otherSignIn.has(chunk) && !signIn.has(chunk))) continue;
    const group = signIn.has(chunk) ? groups.signIn : visit.has(chunk) ? groups.ui : groups.layout;
    for (const module of chunk.moduleIds) if (!pages.has(module)) group.add(module);
  }
  return groups;
}

/** A chain of chunks importing each other statically, if the bundle has one. */
function chunkCycle(chunks: Map<string, OutputChunk>): string[] | null {
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string): string[] | null => {
    if (path.includes(file)) return [...path.slice(path.indexOf(file)), file];
    if (done.has(file)) return null;
    path.push(file);
    for (const imported of chunks.get(file)?.imports ?? []) {
      const cycle = visit(imported);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(file);
    return null;
  };
  for (const file of chunks.keys()) {
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return null;
}

/**
 * Writes signed-in.html: index.html naming, up front, the chunks the signed-in layout's first view
 * loads (the groups, AppShell and MainLayout, what they import, and their style sheets). The
 * server sends it instead of index.html to a browser holding a session, so those chunks load
 * beside the entry script instead of after it has run (issue 12 goal 4); a visitor of the sign-in
 * page does not load them. Also refuses a bundle whose chunks import each other: the groups take
 * modules out of the bundler's own chunking without their dependencies, and chunks in a cycle would
 * run their modules in an order the source does not say.
 */
function signedInPage(): Plugin {
  return {
    name: 'dam:signed-in-page',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset' || process.env[FIRST_PASS]) return;
      const chunks = new Map(
        Object.values(bundle).flatMap((file) =>
          file.type === 'chunk' ? [[file.fileName, file] as const] : [],
        ),
      );
      const cycle = chunkCycle(chunks);
      if (cycle) this.error(`chunks import each other: ${cycle.join(' → ')}`);
      // With the layout: the folder page, the page people open most (a shared link, a bookmark;
      // 1.4 kB compressed, the rest of it is in the groups).
      const facades = [
        source('app/AppShell.tsx'),
        source('layout/MainLayout.tsx'),
        source('features/files/AllFilesPage.tsx'),
      ];
      const html = String(index.source);
      const preload = new Set<OutputChunk>();
      const add = (chunk: OutputChunk) => {
        // index.html names the entry and what it imports already.
        if (preload.has(chunk) || chunk.isEntry || html.includes(`/${chunk.fileName}"`)) return;
        preload.add(chunk);
        for (const file of chunk.imports) add(chunks.get(file) as OutputChunk);
      };
      for (const chunk of chunks.values())
        if (
          Object.values<string>(GROUP_CHUNKS).includes(chunk.name) ||
          facades.includes(chunk.facadeModuleId ?? '')
        )
          add(chunk);
      const links = [...preload].flatMap((chunk) => [
        `<link rel="modulepreload" crossorigin href="/${chunk.fileName}">`,
        ...[...(chunk.viteMetadata?.importedCss ?? [])].map(
          // Fetched now, applied when the chunk is imported (as without this page).
          (css) => `<link rel="preload" as="style" crossorigin href="/${css}">`,
        ),
      ]);
      this.emitFile({
        type: 'asset',
        fileName: 'signed-in.html',
        source: html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`),
      });
    },
  };
}

const api = 'http://127.0.0.1:8080';

/**
 * React Router's own production build. Its package exports name only its development build, for
 * every condition (remix-run/react-router#14102), whose only difference is that its warnings are
 * switched on: they then run, and ship, in every page of a production build.
 */
const reactRouterProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

export default defineConfig(async ({ command }) => {
  const groups = command === 'build' && !process.env[FIRST_PASS] ? await firstViewGroups() : null;
  return {
    plugins: [react(), antdZeroRuntime(), precompress(), signedInPage()],
    resolve:
      command === 'build' ? { alias: [{ find: /^react-router$/, replacement: reactRouterProduction }] } : {},
    server: {
      port: 5173,
      proxy: { '/ske-api': api, '/security-api': api, '/open': api, '/health': api },
    },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // The budget check (scripts/check-bundle-size.mjs) reads which chunks each page needs here.
      manifest: true,
      rolldownOptions: {
        treeshake: { manualPureFunctions: ['z'] },
        output: groups
          ? {
              codeSplitting: {
                // A group holds exactly the modules found for it; what they import from elsewhere
                // (React in the entry, say) stays where it is.
                includeDependenciesRecursively: false,
                groups: (Object.keys(GROUP_CHUNKS) as Array<keyof FirstViewGroups>).map((group) => ({
                  name: GROUP_CHUNKS[group],
                  test: (id: string) => groups[group].has(id),
                })),
              },
            }
          : {},
      },
    },
  };
});
