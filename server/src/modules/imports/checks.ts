import {
  IMPORT_PREVIEW_MAX,
  IMPORT_PROBLEMS_MAX,
  IMPORT_PROGRESS_STEP,
  SKU_IMPORT_FIELDS,
  SKU_REQUIRED_FIELDS,
  splitTagCell,
} from '@dam/contract';
import type { ImportSheetRow, SkuRow } from '../../db/schema';
import { SKU_FIELD_COLUMN, SKU_FIELD_MAX } from '../sku/fields';
import { SkuImportError } from '../sku/import-error';
import type { SkuColumn, SkuValues } from '../sku/repository';
import { mapHeader } from '../sku/workbook';
import { TagCatalog } from '../tags/catalog';
import type { TagsRepository } from '../tags/repository';
import { columnLabel } from '../tags/workbook';
import type { CheckOutcome, ImportsRepository, StoredChange, StoredProblem } from './repository';

/**
 * The rules of each kind of import, row by row; no HTTP, no jobs. `evaluate` reads the data the
 * rows touch through the repository it is given (inside the apply's transaction, or outside for
 * the dry run) and answers what would change and every problem, by row and column.
 */

/** What the apply writes once every row passed. */
export type ImportPlan =
  | { kind: 'sku'; rows: SkuValues[]; columns: SkuColumn[] }
  | { kind: 'tagAssignments'; sets: Map<number, number[]> };

export interface Evaluation extends CheckOutcome {
  plan: ImportPlan;
}

/** Collects problems (all counted, the first IMPORT_PROBLEMS_MAX kept) and the change preview. */
class Findings {
  problems: StoredProblem[] = [];
  problemCount = 0;
  changes: StoredChange[] = [];
  created = 0;
  updated = 0;
  unchanged = 0;
  private readonly rowsWithProblems = new Set<number>();

  problem(problem: StoredProblem): void {
    this.problemCount += 1;
    this.rowsWithProblems.add(problem.row);
    if (this.problems.length < IMPORT_PROBLEMS_MAX) this.problems.push(problem);
  }

  hasProblem(row: number): boolean {
    return this.rowsWithProblems.has(row);
  }

  change(change: StoredChange): void {
    if (change.action === 'create') this.created += 1;
    else this.updated += 1;
    if (this.changes.length < IMPORT_PREVIEW_MAX) this.changes.push(change);
  }

  outcome(): CheckOutcome {
    return {
      status: this.problemCount > 0 ? 'rejected' : 'checked',
      created: this.created,
      updated: this.updated,
      unchanged: this.unchanged,
      problemCount: this.problemCount,
      problems: this.problems,
      changes: this.changes,
    };
  }
}

type Progress = (processed: number) => Promise<void>;

async function inChunks(
  rows: readonly ImportSheetRow[],
  progress: Progress | undefined,
  work: (chunk: readonly ImportSheetRow[]) => Promise<void>,
): Promise<void> {
  for (let start = 0; start < rows.length; start += IMPORT_PROGRESS_STEP) {
    await work(rows.slice(start, start + IMPORT_PROGRESS_STEP));
    await progress?.(Math.min(rows.length, start + IMPORT_PROGRESS_STEP));
  }
}

/** The columns of an SKU workbook; SESK_02 names a required column the header lacks. */
export function skuHeader(header: ImportSheetRow) {
  const columns = mapHeader(header.c);
  for (const field of SKU_REQUIRED_FIELDS) {
    if (!columns.has(field)) throw new SkuImportError('SESK_02', {}, field);
  }
  return columns;
}

/** The article-number column of a tag-assignment workbook; SESK_02 when there is none. */
export function tagHeaderArtNum(header: ImportSheetRow): number {
  const column = mapHeader(header.c).get('artNum');
  if (!column) throw new SkuImportError('SESK_02', {}, 'artNum');
  return column.index;
}

const text = (value: string | null | undefined) => value ?? '';

/** SKU master rows: required and length checks, duplicates, and what each row would change. */
export async function evaluateSku(
  repo: ImportsRepository,
  header: ImportSheetRow,
  rows: readonly ImportSheetRow[],
  progress?: Progress,
): Promise<Evaluation> {
  const columns = skuHeader(header);
  const found = new Findings();
  const firstRowOf = new Map<string, number>();
  const valid: SkuValues[] = [];
  const label = (index: number) => columnLabel(index, header.c[index] ?? '');
  await inChunks(rows, progress, async (chunk) => {
    const candidates: Array<{ row: number; values: SkuValues }> = [];
    for (const sheetRow of chunk) {
      const values: Partial<Record<SkuColumn, string | null>> = {};
      for (const [field, column] of columns) {
        const cell = sheetRow.c[column.index] ?? '';
        const where = { row: sheetRow.n, column: label(column.index) };
        if (!cell && SKU_REQUIRED_FIELDS.includes(field))
          found.problem({ ...where, key: 'required', values: {} });
        else if ([...cell].length > SKU_FIELD_MAX[field])
          found.problem({ ...where, key: 'tooLong', values: { max: SKU_FIELD_MAX[field] } });
        values[SKU_FIELD_COLUMN[field]] = cell || null;
      }
      const artNum = values.art_num;
      if (artNum) {
        const key = artNum.toLowerCase();
        const other = firstRowOf.get(key);
        if (other !== undefined) {
          found.problem({
            row: sheetRow.n,
            column: label((columns.get('artNum') as { index: number }).index),
            key: 'duplicateArtNum',
            values: { value: artNum, other },
          });
        } else firstRowOf.set(key, sheetRow.n);
      }
      if (!found.hasProblem(sheetRow.n)) {
        candidates.push({
          row: sheetRow.n,
          values: { ...values, art_num: artNum as string, name: values.name as string },
        });
      }
    }
    const stored = await repo.skusByArtNums(candidates.map((c) => c.values.art_num));
    for (const { row, values } of candidates) {
      valid.push(values);
      const before: SkuRow | undefined = stored.get(values.art_num.toLowerCase());
      const fields: StoredChange['fields'] = [];
      for (const [field, column] of columns) {
        const name = SKU_FIELD_COLUMN[field];
        const was = before ? text(before[name]) : '';
        const now = text(values[name]);
        if (was !== now) fields.push({ column: header.c[column.index] ?? field, before: was, after: now });
      }
      if (!before) found.change({ row, artNum: values.art_num, action: 'create', fields });
      else if (fields.length > 0) found.change({ row, artNum: values.art_num, action: 'update', fields });
      else found.unchanged += 1;
    }
  });
  const skuColumns = SKU_IMPORT_FIELDS.filter((f) => columns.has(f)).map((f) => SKU_FIELD_COLUMN[f]);
  return { ...found.outcome(), plan: { kind: 'sku', rows: valid, columns: skuColumns } };
}

/**
 * Tag assignments: each row names an article of the SKU data and, per dimension column, its tags
 * in that dimension (several separated by commas; an empty cell clears the dimension). Dimensions
 * without a column keep the article's tags. The resulting set must pass the tag rules (SPEC §5).
 */
export async function evaluateTagAssignments(
  repo: ImportsRepository,
  tags: TagsRepository,
  header: ImportSheetRow,
  rows: readonly ImportSheetRow[],
  progress?: Progress,
): Promise<Evaluation> {
  const artNumIndex = tagHeaderArtNum(header);
  const catalog = await TagCatalog.load(tags);
  const found = new Findings();
  const skuColumns = mapHeader(header.c);
  const ignored = new Set([...skuColumns.values()].map((c) => c.index));
  const dimensionColumns: Array<{ index: number; label: string; dimensionId: number; name: string }> = [];
  for (const [index, cell] of header.c.entries()) {
    if (!cell || ignored.has(index)) continue;
    const dimension = catalog.dimensionNamed(cell.replace(/[*＊]/g, '').trim());
    if (dimension)
      dimensionColumns.push({
        index,
        label: columnLabel(index, cell),
        dimensionId: dimension.id,
        name: cell,
      });
    else
      found.problem({
        row: header.n,
        column: columnLabel(index, cell),
        key: 'unknownDimension',
        values: { value: cell },
      });
  }
  const inFile = new Set(dimensionColumns.map((c) => c.dimensionId));
  const artNumLabel = columnLabel(artNumIndex, header.c[artNumIndex] ?? '');
  const firstRowOf = new Map<string, number>();
  const sets = new Map<number, number[]>();
  const namesIn = (ids: readonly number[], dimensionId: number) =>
    catalog
      .order(ids)
      .filter((tag) => tag.dimension_id === dimensionId)
      .map((tag) => tag.name)
      .join(', ');
  await inChunks(rows, progress, async (chunk) => {
    const stored = await repo.skusByArtNums(chunk.map((r) => r.c[artNumIndex] ?? '').filter(Boolean));
    const current = await repo.tagIdsOfSkus([...stored.values()].map((s) => s.id));
    for (const sheetRow of chunk) {
      const artNum = sheetRow.c[artNumIndex] ?? '';
      if (!artNum) {
        found.problem({ row: sheetRow.n, column: artNumLabel, key: 'required', values: {} });
        continue;
      }
      const key = artNum.toLowerCase();
      const other = firstRowOf.get(key);
      if (other !== undefined) {
        found.problem({
          row: sheetRow.n,
          column: artNumLabel,
          key: 'duplicateArtNum',
          values: { value: artNum, other },
        });
        continue;
      }
      firstRowOf.set(key, sheetRow.n);
      const sku = stored.get(key);
      if (!sku) {
        found.problem({
          row: sheetRow.n,
          column: artNumLabel,
          key: 'unknownArtNum',
          values: { value: artNum },
        });
        continue;
      }
      const before = current.get(sku.id) ?? [];
      const next = before.filter((id) => {
        const tag = catalog.tag(id);
        return tag !== undefined && !inFile.has(tag.dimension_id);
      });
      let bad = false;
      for (const column of dimensionColumns) {
        for (const name of splitTagCell(sheetRow.c[column.index] ?? '')) {
          const tag = catalog.tagNamed(column.dimensionId, name);
          if (tag) next.push(tag.id);
          else {
            bad = true;
            found.problem({
              row: sheetRow.n,
              column: column.label,
              key: 'unknownTag',
              values: { value: name },
            });
          }
        }
      }
      if (bad) continue;
      const set = [...new Set(next)];
      const problem = catalog.problem(set);
      if (problem) {
        const column =
          dimensionColumns.find((c) => c.dimensionId === problem.dimensionId)?.label ??
          (problem.dimensionId === null ? artNumLabel : (catalog.dimension(problem.dimensionId)?.name ?? ''));
        found.problem({
          row: sheetRow.n,
          column,
          key: 'tagRule',
          code: problem.code,
          values: problem.values,
        });
        continue;
      }
      const fields = dimensionColumns
        .map((column) => ({
          column: column.name,
          before: namesIn(before, column.dimensionId),
          after: namesIn(set, column.dimensionId),
        }))
        .filter((field) => field.before !== field.after);
      const sameSet = set.length === before.length && set.every((id) => before.includes(id));
      if (sameSet) {
        found.unchanged += 1;
        continue;
      }
      sets.set(sku.id, set);
      found.change({ row: sheetRow.n, artNum: sku.art_num, action: 'update', fields });
    }
  });
  return { ...found.outcome(), plan: { kind: 'tagAssignments', sets } };
}
