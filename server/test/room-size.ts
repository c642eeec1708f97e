import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The most lines a source file may have (issue 41 item 5). */
export const FILE_LIMIT = 400;
/** The most lines one function or component may span. */
export const FUNCTION_LIMIT = 150;

const root = path.resolve(import.meta.dirname, '../..');
const SOURCE_DIRS = ['server/src', 'web/src', 'web/vite', 'packages/contract/src', 'scripts', 'bench'];
/** Tables rather than rooms: translations, the error catalogue, migrations; and tests. */
const EXEMPT = [/\/i18n\//, /\/migrations\//, /(^|\/)errors\.ts$/, /\.test\.tsx?$/, /\.d\.ts$/];

export function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(rel);
      } else if (/\.(tsx?|mjs)$/.test(entry.name) && !EXEMPT.some((pattern) => pattern.test(rel)))
        out.push(rel);
    }
  };
  for (const dir of SOURCE_DIRS) if (fs.existsSync(path.join(root, dir))) walk(dir);
  return out.sort();
}

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** Files over FILE_LIMIT lines: `path` → lines. */
export function largeFiles(files: string[]): Record<string, number> {
  const found: Record<string, number> = {};
  for (const file of files) {
    const lines = lineCount(fs.readFileSync(path.join(root, file), 'utf8'));
    if (lines > FILE_LIMIT) found[file] = lines;
  }
  return found;
}

function functionName(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name)
    return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

/**
 * Functions (declarations, methods, arrow functions and function expressions, components
 * included) spanning more than FUNCTION_LIMIT lines: `path:name` → lines. A function nested in a
 * long one is counted on its own as well.
 */
export function longFunctions(files: string[]): Record<string, number> {
  const found: Record<string, number> = {};
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (
        ts.isFunctionDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isConstructorDeclaration(node) ||
        ts.isArrowFunction(node) ||
        ts.isFunctionExpression(node)
      ) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > FUNCTION_LIMIT) {
          let key = `${file}:${functionName(node)}`;
          for (let n = 2; key in found; n++) key = `${file}:${functionName(node)}#${n}`;
          found[key] = lines;
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
