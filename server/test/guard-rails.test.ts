import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Guard rails of the layout (issue 10 item 8), read from the sources with TypeScript's parser:
 * routes → service → repository on the server (only repositories speak SQL through Kysely, only
 * route files know Fastify), no network calls in web components (they go through each feature's
 * api.ts), and no import cycles in the runtime graph of server, web and contract.
 */
const root = path.resolve(import.meta.dirname, '../..');
const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');

/**
 * Known exceptions, each with its reason and who removes it. An entry that no longer matches a
 * violation fails the test too, so the list only shrinks.
 */
const ALLOWED: Record<string, string> = {
  // Helper "endpoints" (routes converted to the endpoint table, issue 10 item 1): the health
  // check runs `SELECT 1` in the route; it belongs in a repository method the route calls.
  'server/src/modules/health/routes.ts: imports kysely': 'health check query in the route',
  // Issue 40: probes and tools that query no table of a feature. Readiness runs `SELECT 1` and
  // reads the migration table; the metrics count pg-boss's own tables under a statement time-out;
  // the backup's deletion gate takes an advisory lock on the very connection a deletion uses.
  'server/src/modules/health/readiness.ts: imports kysely': 'readiness probe queries',
  'server/src/modules/metrics/queue-counts.ts: imports kysely': "counts pg-boss's tables at a scrape",
  'server/src/modules/backup/deletion-gate.ts: imports kysely': 'advisory lock on the deleting connection',
  // Helper "modules" (issue 10 item 4): the operation recorder takes a FastifyRequest to read who
  // and from where; it should take those values (user id, address) from the route instead.
  'server/src/modules/logs/recorder.ts: imports fastify': 'recorder reads the request itself',
  // Helper "endpoints": the reply writer shared by the downloads and shares routes is HTTP layer
  // under a plain name; renaming it send.routes.ts (or moving it to server/src/http) ends this.
  'server/src/modules/downloads/send.ts: imports fastify': 'HTTP helper named like a service',
};

interface ImportEdge {
  specifier: string;
  /** `import type` / `export type`, or every named binding marked `type`: erased at build time. */
  typeOnly: boolean;
  /** `import()`: loaded later, so it cannot close a cycle at module load. */
  dynamic: boolean;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

const parsed = new Map<string, ts.SourceFile>();
function parse(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (!source) {
    source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(file, source);
  }
  return source;
}

function importsOf(file: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!bindings &&
            ts.isNamedImports(bindings) &&
            bindings.elements.length > 0 &&
            bindings.elements.every((element) => element.isTypeOnly)));
      edges.push({ specifier: node.moduleSpecifier.text, typeOnly, dynamic: false });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      edges.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly, dynamic: false });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      edges.push({ specifier: node.arguments[0].text, typeOnly: false, dynamic: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return edges;
}

const CONTRACT_INDEX = path.join(root, 'packages/contract/src/index.ts');
function resolve(from: string, specifier: string): string | null {
  if (specifier === '@dam/contract') return CONTRACT_INDEX;
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (/\.tsx?$/.test(candidate) && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

const packageOf = (specifier: string) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];

const serverModules = sourceFiles(path.join(root, 'server/src/modules'));
const isRepository = (file: string) => /(^|[.-])repository\.ts$/.test(path.basename(file));
const isRoutes = (file: string) => /(^|[.-])routes\.ts$/.test(path.basename(file));

/** Violations not allowed, and allowances (of this kind) that no longer match a violation. */
function check(violations: string[], ofKind: (allowed: string) => boolean) {
  const unexpected = violations.filter((violation) => !(violation in ALLOWED));
  const staleAllowances = Object.keys(ALLOWED).filter(
    (allowed) => ofKind(allowed) && !violations.includes(allowed),
  );
  return { unexpected, staleAllowances };
}

function boundaryViolations(): string[] {
  const violations: string[] = [];
  for (const file of serverModules) {
    for (const edge of importsOf(file)) {
      const name = packageOf(edge.specifier);
      if (name === 'kysely' && !isRepository(file)) violations.push(`${rel(file)}: imports kysely`);
      if (/^(fastify|@fastify\/|fastify-)/.test(name ?? '') && !isRoutes(file))
        violations.push(`${rel(file)}: imports ${name}`);
    }
  }
  for (const file of sourceFiles(path.join(root, 'web/src/features')).filter((f) => f.endsWith('.tsx'))) {
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const bare = ts.isIdentifier(callee) && callee.text === 'fetch';
        const global =
          ts.isPropertyAccessExpression(callee) &&
          callee.name.text === 'fetch' &&
          ts.isIdentifier(callee.expression) &&
          ['window', 'globalThis', 'self'].includes(callee.expression.text);
        if (bare || global) violations.push(`${rel(file)}: calls fetch`);
      }
      ts.forEachChild(node, visit);
    };
    visit(parse(file));
  }
  return [...new Set(violations)];
}

const FEATURES = path.join(root, 'web/src/features');
/** The web feature folder a file belongs to, if it is in one. */
function featureOf(file: string): string | null {
  const inFeatures = path.relative(FEATURES, file);
  return inFeatures.startsWith('..') ? null : inFeatures.split(path.sep)[0]!;
}
/** A feature's public faces: index.ts, and lazy.ts (loaders of what others load on demand). */
const isPublicFace = (file: string) =>
  /^[^/]+\/(index|lazy)\.ts$/.test(path.relative(FEATURES, file).split(path.sep).join('/'));

/** Imports of another feature's internals, and pairs of features importing each other (issue 41 item 3). */
function featureBoundaries() {
  const deep: string[] = [];
  const pairs = new Set<string>();
  for (const file of sourceFiles(FEATURES)) {
    const from = featureOf(file)!;
    for (const edge of importsOf(file)) {
      const target = /\.css$/.test(edge.specifier)
        ? path.resolve(path.dirname(file), edge.specifier)
        : resolve(file, edge.specifier);
      const to = target ? featureOf(target) : null;
      if (!target || !to || to === from) continue;
      pairs.add(`${from} → ${to}`);
      if (!isPublicFace(target)) deep.push(`${rel(file)}: imports ${rel(target)}`);
    }
  }
  const mutual = [...pairs]
    .map((pair) => pair.split(' → '))
    .filter(([from, to]) => from! < to! && pairs.has(`${to} → ${from}`))
    .map(([from, to]) => `${from} ↔ ${to}`);
  return { deep, mutual };
}

/** Strongly connected components of the runtime import graph (Tarjan), as file lists. */
function importCycles(): string[][] {
  const files = ['server/src', 'web/src', 'packages/contract/src'].flatMap((dir) =>
    sourceFiles(path.join(root, dir)),
  );
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(file)
      .filter((edge) => !edge.typeOnly && !edge.dynamic)
      .map((edge) => resolve(file, edge.specifier))
      .filter((target): target is string => target !== null);
    graph.set(file, [...new Set(targets)]);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (file: string) => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      const selfLoop = component.length === 1 && (graph.get(file) ?? []).includes(file);
      if (component.length > 1 || selfLoop) cycles.push(component.map(rel).sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return cycles;
}

describe('guard rails', () => {
  it('keeps Kysely in repositories, Fastify in route files and fetch out of web components', () => {
    const { unexpected, staleAllowances } = check(
      boundaryViolations(),
      (allowed) => !allowed.startsWith('cycle:'),
    );
    expect(unexpected, 'move the call behind the layer that owns it').toEqual([]);
    expect(staleAllowances, 'fixed: remove these from ALLOWED').toEqual([]);
  });

  it('has no import cycles among server, web and contract modules', () => {
    const cycles = importCycles().map((component) => `cycle: ${component.join(' ↔ ')}`);
    const { unexpected, staleAllowances } = check(cycles, (allowed) => allowed.startsWith('cycle:'));
    expect(
      unexpected,
      'break the cycle (move the shared piece out, or import a type with `import type`)',
    ).toEqual([]);
    expect(staleAllowances, 'fixed: remove these from ALLOWED').toEqual([]);
  });

  it('web features import each other only through index.ts (or lazy.ts), and no two features import each other', () => {
    const { deep, mutual } = featureBoundaries();
    expect(
      deep,
      "import the feature's index.ts (lazy.ts for what is loaded on demand), or move the shared piece to ui/ or api/",
    ).toEqual([]);
    expect(mutual, 'break the pair: move the shared piece out, or pass it in as a prop').toEqual([]);
  });
});
