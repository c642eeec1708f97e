import fs from 'node:fs';
import path from 'node:path';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult } from 'kysely';
import type { Db } from '../src/db/database';

/**
 * The checked-in SQL of the hot paths (issue 41 item 6): a Kysely plugin that records the SQL of
 * every statement a repository method runs, a formatter that lays it out one clause a line, and
 * the files of server/src/queries it is compared with (or, with UPDATE_QUERIES=1, written to).
 */

export const QUERIES_DIR = path.resolve(import.meta.dirname, '../src/queries');
export const UPDATING = process.env.UPDATE_QUERIES === '1';
export const REFRESH_COMMAND = 'UPDATE_QUERIES=1 npx vitest run server/test/queries.test.ts';

/** One statement as run: the method that ran it and its SQL (parameters as $1, $2…). */
export interface Captured {
  method: string;
  sql: string;
}

/** Records the SQL of each statement run through `db` (compiled as the executor compiles it). */
export class SqlRecorder implements KyselyPlugin {
  private statements: string[] = [];
  readonly captured: Captured[] = [];
  /** The recording database: pass it to the repositories. */
  readonly db: Db;

  constructor(private readonly base: Db) {
    this.db = base.withPlugin(this);
  }

  // Kysely transforms a query builder's node when it is composed into another (a union's parts)
  // as well as before running it: only the queries that ran (and so have a result) are kept.
  private readonly compiled = new WeakMap<PluginTransformQueryArgs['queryId'], string>();

  transformQuery({ node, queryId }: PluginTransformQueryArgs) {
    this.compiled.set(queryId, this.base.getExecutor().compileQuery(node, queryId).sql);
    return node;
  }

  async transformResult({
    result,
    queryId,
  }: PluginTransformResultArgs): Promise<QueryResult<Record<string, unknown>>> {
    const sql = this.compiled.get(queryId);
    if (sql !== undefined) this.statements.push(sql);
    return result;
  }

  /** Runs `work`, naming each statement it ran after `method`. */
  async capture(method: string, work: () => Promise<unknown>): Promise<void> {
    this.statements = [];
    await work();
    if (this.statements.length === 0)
      throw new Error(`${method} ran no SQL: give it data that reaches the query`);
    const count = this.statements.length;
    for (const [index, sql] of this.statements.entries())
      this.captured.push({ method: count > 1 ? `${method} [${index + 1}/${count}]` : method, sql });
  }

  /** Takes what was captured so far (for the next area). */
  take(): Captured[] {
    return this.captured.splice(0);
  }
}

/** A string or quoted name, a comment, whitespace, a parenthesis or comma, or anything else. */
const TOKENS = /--[^\n]*|'(?:[^']|'')*'|"(?:[^"]|"")*"|\s+|[(),]|[^\s(),'"]+/g;
/** Words that start a clause on a line of its own (inside a query, not inside an expression). */
const CLAUSES = new Set([
  'select',
  'from',
  'where',
  'group',
  'having',
  'order',
  'limit',
  'offset',
  'union',
  'intersect',
  'except',
  'values',
  'returning',
  'with',
  'window',
  'insert',
  'update',
  'delete',
  'set',
  'inner',
  'left',
  'right',
  'full',
  'cross',
]);
/** The first words of a query in parentheses (a subquery, a data-modifying WITH part). */
const QUERY_STARTS = new Set(['select', 'with', 'values', 'insert', 'update', 'delete']);
const JOIN_PREFIXES = new Set(['inner', 'left', 'right', 'full', 'cross', 'outer', 'natural']);

/**
 * One clause a line, conditions joined by AND / OR and the columns of a select list each on a line
 * of their own, two spaces deeper per nested query; expressions stay whole. Whitespace outside
 * strings is normalised, so the layout of a raw `sql` template does not matter.
 */
export function formatSql(sql: string): string {
  const tokens = (sql.match(TOKENS) ?? []).filter((token) => token.length > 0);
  const lines: string[] = [];
  let line = '';
  let space = false;
  // Per open parenthesis: whether it holds a query, the clause its query is in, and its lines'
  // indentation (a query's two spaces deeper than the line that opened it).
  const isQuery = [true];
  const clause = [''];
  const indents = [''];
  let opened = false;
  const depth = () => isQuery.length - 1;
  const indent = () => indents[depth()] ?? '';
  const breakLine = (extra = '') => {
    if (line.trim() !== '') lines.push(line.trimEnd());
    line = indent() + extra;
    space = false;
  };
  const put = (text: string) => {
    if (space && line.trim() !== '' && !line.endsWith(' ') && !line.endsWith('(')) line += ' ';
    line += text;
    space = false;
  };
  const nextWord = (from: number) =>
    tokens
      .slice(from + 1)
      .find((token) => !/^\s+$/.test(token))
      ?.toLowerCase();
  let previous = '';
  tokens.forEach((token, index) => {
    if (/^\s+$/.test(token)) {
      space = true;
      return;
    }
    const word = token.toLowerCase();
    if (opened) {
      opened = false;
      isQuery[depth()] = QUERY_STARTS.has(word);
      if (isQuery[depth()]) indents[depth()] = `${/^ */.exec(line)?.[0] ?? ''}  `;
    }
    const inQuery = isQuery[depth()] === true;
    if (token.startsWith('--')) {
      breakLine('  ');
      put(token);
      breakLine('  ');
    } else if (token === '(') {
      put('(');
      isQuery.push(false);
      clause.push('');
      indents.push(indent());
      opened = true;
    } else if (token === ')') {
      isQuery.pop();
      clause.pop();
      indents.pop();
      space = false;
      put(')');
    } else if (token === ',') {
      put(',');
      if (inQuery && (clause[depth()] === 'select' || clause[depth()] === 'returning')) breakLine('  ');
    } else if (
      inQuery &&
      ((CLAUSES.has(word) && !(word === 'update' && (previous === 'for' || previous === 'do'))) ||
        (word === 'join' && !JOIN_PREFIXES.has(previous)) ||
        (word === 'on' && nextWord(index) === 'conflict'))
    ) {
      breakLine();
      put(token);
      clause[depth()] = word;
    } else if (inQuery && (word === 'and' || word === 'or') && clause[depth()] !== 'select') {
      breakLine('  ');
      put(token);
    } else if (inQuery && (word === 'when' || word === 'else') && clause[depth()] === 'select') {
      breakLine('    ');
      put(token);
    } else put(token);
    previous = word;
  });
  breakLine();
  return lines.join('\n');
}

/** The text of an area's file: a header, then each statement under the method that ran it. */
export function sqlFile(area: string, statements: Captured[]): string {
  const header = [
    `-- The SQL behind ${area}, written by server/test/queries.test.ts from the repositories' real calls`,
    '-- (issue 41 item 6). Do not edit: after a query changes, run `npm run sync:sql` and commit this file.',
  ];
  return `${[...header, ...statements.map(({ method, sql }) => `\n-- ${method}\n${formatSql(sql)};`)].join('\n')}\n`;
}

/** The checked-in files of server/src/queries by name (without `.sql`). */
export function checkedInAreas(): string[] {
  if (!fs.existsSync(QUERIES_DIR)) return [];
  return fs
    .readdirSync(QUERIES_DIR)
    .filter((name) => name.endsWith('.sql'))
    .map((name) => name.slice(0, -4))
    .sort();
}

export const fileOf = (area: string) => path.join(QUERIES_DIR, `${area}.sql`);
