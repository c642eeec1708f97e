import type { Readable } from 'node:stream';
import {
  ERROR_CODES,
  type ErrorCode,
  errorMessage,
  FunctionCode,
  IMPORT_MAX_ROWS,
  IMPORT_PREVIEW_MAX,
  type ImportDetail,
  type ImportKind,
  type ImportPage,
  type ImportProblemKey,
  type ImportSummary,
  importProblemMessage,
  type Language,
  OperationCode,
} from '@dam/contract';
import type { Db } from '../../db/database';
import type { ImportSheetRow } from '../../db/schema';
import { AppError, coded } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { type AuthContext, administrationReach, requireAnyCode, withinReach } from '../access/access';
import type { LogsService } from '../logs/service';
import { SkuImportError } from '../sku/import-error';
import type { SkuRepository } from '../sku/repository';
import { buildTemplate, readFirstSheet, UnreadableWorkbookError } from '../sku/workbook';
import { TagCatalog } from '../tags/catalog';
import type { TagsRepository } from '../tags/repository';
import { writeTagWorkbook } from '../tags/workbook';
import { type Evaluation, evaluateSku, evaluateTagAssignments, skuHeader, tagHeaderArtNum } from './checks';
import type { ImportReach, ImportRecord, ImportsRepository, StoredProblem } from './repository';

export type ImportAction = 'check' | 'apply';

export interface ImportsDependencies {
  imports: ImportsRepository;
  clock: Clock;
  /** Queues the job of an import; without a queue (some tests) the work runs within the call. */
  enqueue?: (importId: number, action: ImportAction) => Promise<void>;
  logs: LogsService;
  warn: (details: Record<string, unknown>, message: string) => void;
  /** The tags and SKU repositories, made on a handle given (the import's transaction). */
  tagsOn: (db: Db) => TagsRepository;
  skuOn: (db: Db) => SkuRepository;
}

/** What an upload looks like to the service: its name, its bytes, and whether they were cut off. */
export interface ImportUpload {
  fileName: string;
  stream: Readable;
  truncated(): boolean;
}

async function drain(stream: Readable): Promise<void> {
  stream.unpipe();
  for await (const _chunk of stream) {
    // discard
  }
}

/** Counts the bytes passing through, to record the file's size. */
function counted(stream: Readable): { stream: Readable; bytes: () => number } {
  let bytes = 0;
  stream.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
  });
  return { stream, bytes: () => bytes };
}

/**
 * Import management (SPEC §2 /manage/import, §6 code 8): uploads read at once, dry runs and
 * applies done by the import job, the history. Every call needs code 8; tag assignments also
 * need tag management (code 4), which `manage/sku-tag` needs for the same change by hand. An
 * administrator sees and acts on their own imports and those of the departments they administer.
 */
export class ImportsService {
  constructor(private readonly deps: ImportsDependencies) {}

  private get repo() {
    return this.deps.imports;
  }

  /** Throws SE_502 unless the caller may import `kind` (or anything, without a kind). */
  requireImport(auth: AuthContext, kind?: ImportKind): void {
    requireAnyCode(auth, FunctionCode.import);
    if (kind === 'tagAssignments') requireAnyCode(auth, FunctionCode.tag);
  }

  private reachOf(auth: AuthContext): ImportReach {
    const reach = administrationReach(auth);
    if (reach.kind === 'all') return { everything: true };
    return {
      everything: false,
      userId: auth.userId,
      deptPath: reach.kind === 'subtree' ? reach.pathPrefix : null,
    };
  }

  /** The import, when the caller may see it (own, or made within the departments they administer). */
  private async visible(auth: AuthContext, id: number): Promise<ImportRecord> {
    this.requireImport(auth);
    const record = await this.repo.find(id);
    if (!record) throw new AppError('SE_404');
    if (record.created_by !== auth.userId && !withinReach(administrationReach(auth), record.dept_path))
      throw new AppError('SE_404');
    return record;
  }

  /** An empty workbook of a kind: the header row (tag assignments: one column per dimension). */
  async template(auth: AuthContext, kind: ImportKind, chinese: boolean): Promise<Buffer> {
    this.requireImport(auth, kind);
    if (kind === 'sku') return buildTemplate(chinese);
    const catalog = await TagCatalog.load(this.deps.tagsOn(this.repo.db));
    const columns = [
      { header: chinese ? '货号' : 'Article number', width: 20 },
      ...catalog.ordered.map((d) => ({ header: d.name, width: 24 })),
    ];
    return writeTagWorkbook(chinese ? '货号标签' : 'Article tags', columns, []);
  }

  /**
   * Reads the workbook (refusing a file that is not .xlsx, too large, without header or data rows,
   * or without the kind's required columns: nothing is kept then), keeps its rows and starts the dry run.
   */
  async create(
    auth: AuthContext,
    kind: ImportKind,
    upload: ImportUpload,
    lang: Language,
  ): Promise<ImportDetail> {
    this.requireImport(auth, kind);
    const source = counted(upload.stream);
    let sheet: { header: ImportSheetRow | null; rows: ImportSheetRow[] };
    try {
      sheet = await readSheet(source.stream);
    } catch (error) {
      await drain(upload.stream);
      if (upload.truncated()) throw new SkuImportError('SESK_06');
      if (error instanceof UnreadableWorkbookError) throw new SkuImportError('SESK_01');
      throw error;
    }
    await drain(upload.stream);
    if (upload.truncated()) throw new SkuImportError('SESK_06');
    const { header, rows } = sheet;
    if (!header || rows.length === 0) throw new AppError('SEIM_02');
    if (kind === 'sku') skuHeader(header);
    else tagHeaderArtNum(header);
    const id = await this.repo.insert({
      kind,
      fileName: upload.fileName.slice(0, 255) || 'import.xlsx',
      fileSize: source.bytes(),
      userId: auth.userId,
      deptId: auth.deptId,
      header,
      rows,
      now: this.deps.clock.now(),
    });
    await this.start(id, 'check');
    return this.detail(auth, id, lang);
  }

  async detail(auth: AuthContext, id: number, lang: Language): Promise<ImportDetail> {
    const record = await this.visible(auth, id);
    const preview = await this.repo.previewOf(id);
    return {
      ...present(record),
      changes: preview.changes.slice(0, IMPORT_PREVIEW_MAX),
      problems: preview.problems.slice(0, IMPORT_PREVIEW_MAX).map((p) => presentProblem(p, lang)),
    };
  }

  /**
   * Applies a checked import through the job. Calling again while it is applying or once it is
   * applied answers the import as it is (nothing is done twice); other states are refused (SEIM_01).
   */
  async apply(auth: AuthContext, id: number, lang: Language): Promise<ImportDetail> {
    const record = await this.visible(auth, id);
    this.requireImport(auth, record.kind);
    const moved = await this.repo.transition(id, ['checked'], 'applying', this.deps.clock.now(), {
      appliedBy: auth.userId,
    });
    if (moved) await this.start(id, 'apply');
    else if (record.status !== 'applying' && record.status !== 'applied')
      throw coded('SEIM_01', { status: record.status });
    return this.detail(auth, id, lang);
  }

  /** Drops an import that was not applied (checked, rejected or failed); its rows are deleted. */
  async discard(auth: AuthContext, id: number, lang: Language): Promise<ImportDetail> {
    const record = await this.visible(auth, id);
    const moved = await this.repo.transition(
      id,
      ['checked', 'rejected', 'failed'],
      'discarded',
      this.deps.clock.now(),
    );
    if (!moved && record.status !== 'discarded') throw coded('SEIM_01', { status: record.status });
    return this.detail(auth, id, lang);
  }

  async list(
    auth: AuthContext,
    query: { pageNo: number; pageSize: number; kind?: ImportKind | undefined },
  ): Promise<ImportPage> {
    this.requireImport(auth);
    const { rows, total } = await this.repo.page(
      this.reachOf(auth),
      query.kind,
      (query.pageNo - 1) * query.pageSize,
      query.pageSize,
    );
    return { list: rows.map(present), total, pageNo: query.pageNo, pageSize: query.pageSize };
  }

  /**
   * The problems as an .xlsx: row, column and problem in the caller's language, then the row's
   * own cells under the file's header, so the sheet can be corrected beside it.
   */
  async errorReport(auth: AuthContext, id: number, lang: Language): Promise<Buffer> {
    await this.visible(auth, id);
    const chinese = lang === 'zh';
    const [{ problems }, { header, rows }] = await Promise.all([
      this.repo.previewOf(id),
      this.repo.sheetOf(id),
    ]);
    const cellsOf = new Map(rows.map((r) => [r.n, r.c]));
    cellsOf.set(header.n, header.c);
    const columns = [
      { header: chinese ? '行' : 'Row', width: 8 },
      { header: chinese ? '列' : 'Column', width: 22 },
      { header: chinese ? '问题' : 'Problem', width: 48 },
      ...header.c.map((cell) => ({ header: cell, width: 18 })),
    ];
    function* lines() {
      for (const problem of problems) {
        yield [
          problem.row,
          problem.column,
          presentProblem(problem, lang).message,
          ...(cellsOf.get(problem.row) ?? []),
        ];
      }
    }
    return writeTagWorkbook(chinese ? '错误报告' : 'Errors', columns, lines());
  }

  private async start(id: number, action: ImportAction): Promise<void> {
    if (this.deps.enqueue) await this.deps.enqueue(id, action);
    else await this.run(id, action);
  }

  /** The import job: safe to run twice (it acts only on an import still in the matching state). */
  async run(id: number, action: ImportAction): Promise<void> {
    try {
      if (action === 'check') await this.check(id);
      else await this.applyNow(id);
    } catch (err) {
      this.deps.warn({ err, importId: id, action }, 'import job failed');
      await this.repo.fail(id, this.deps.clock.now());
    }
  }

  private evaluate(
    repo: ImportsRepository,
    kind: ImportKind,
    sheet: { header: ImportSheetRow; rows: ImportSheetRow[] },
    progress?: (processed: number) => Promise<void>,
  ): Promise<Evaluation> {
    return kind === 'sku'
      ? evaluateSku(repo, sheet.header, sheet.rows, progress)
      : evaluateTagAssignments(repo, this.deps.tagsOn(repo.db), sheet.header, sheet.rows, progress);
  }

  private progressOf(id: number) {
    return (processed: number) => this.repo.setProgress(id, processed, this.deps.clock.now());
  }

  /** The dry run: every row checked against the data as it is, nothing written but the import. */
  private async check(id: number): Promise<void> {
    const record = await this.repo.find(id);
    if (record?.status !== 'checking') return;
    const sheet = await this.repo.sheetOf(id);
    const outcome = await this.evaluate(this.repo, record.kind, sheet, this.progressOf(id));
    await this.repo.finishCheck(id, 'checking', outcome, this.deps.clock.now());
  }

  /**
   * The apply: the rows are checked once more with progress reported, then again inside one
   * transaction that writes them all (or, when a row no longer passes, none: the import turns
   * `rejected` with its problems) and marks the import applied.
   */
  private async applyNow(id: number): Promise<void> {
    const record = await this.repo.find(id);
    if (record?.status !== 'applying') return;
    const sheet = await this.repo.sheetOf(id);
    await this.evaluate(this.repo, record.kind, sheet, this.progressOf(id));
    const now = this.deps.clock.now();
    const applied = await this.repo.transaction(async (repo) => {
      if ((await repo.lockStatus(id)) !== 'applying') return null;
      // No tag or dimension changes (and no other tag import) until this one commits.
      if (record.kind === 'tagAssignments') await this.deps.tagsOn(repo.db).lockStructure();
      const evaluation = await this.evaluate(repo, record.kind, sheet);
      if (evaluation.problemCount > 0) {
        await repo.finishCheck(id, 'applying', evaluation, now);
        return null;
      }
      const plan = evaluation.plan;
      if (plan.kind === 'sku') await this.deps.skuOn(repo.db).upsert(plan.rows, plan.columns, now);
      else await repo.setSkuTagSets(plan.sets);
      await repo.finishApply(id, evaluation, now);
      return evaluation;
    });
    if (!applied) return;
    const done = await this.repo.find(id);
    await this.deps.logs
      .record(
        { userId: done?.applied_by ?? done?.created_by ?? null, ip: null, userAgent: null },
        record.kind === 'sku' ? OperationCode.importSku : OperationCode.importSkuTags,
        {
          newValue: record.file_name,
          details: {
            importId: id,
            fileName: record.file_name,
            created: applied.created,
            updated: applied.updated,
            unchanged: applied.unchanged,
          },
        },
      )
      .catch((err) => this.deps.warn({ err, importId: id }, 'operation log entry not written'));
  }
}

async function readSheet(
  stream: Readable,
): Promise<{ header: ImportSheetRow | null; rows: ImportSheetRow[] }> {
  let header: ImportSheetRow | null = null;
  const rows: ImportSheetRow[] = [];
  for await (const row of readFirstSheet(stream)) {
    if (!header) {
      header = { n: row.number, c: row.cells };
      continue;
    }
    if (rows.length >= IMPORT_MAX_ROWS) throw new SkuImportError('SESK_07', { max: IMPORT_MAX_ROWS });
    rows.push({ n: row.number, c: row.cells });
  }
  return { header, rows };
}

function present(record: ImportRecord): ImportSummary {
  return {
    id: record.id,
    kind: record.kind,
    status: record.status,
    fileName: record.file_name,
    userName: record.user_name,
    createdAt: record.created_at.toISOString(),
    appliedByName: record.applied_by_name,
    appliedAt: record.applied_at?.toISOString() ?? null,
    total: record.total_rows,
    processed: record.processed_rows,
    created: record.created_count,
    updated: record.updated_count,
    unchanged: record.unchanged_count,
    problemCount: record.problem_count,
  };
}

function presentProblem(problem: StoredProblem, lang: Language) {
  const detail =
    problem.key === 'tagRule' && problem.code && (ERROR_CODES as readonly string[]).includes(problem.code)
      ? errorMessage(problem.code as ErrorCode, lang, undefined, problem.values)
      : '';
  return {
    row: problem.row,
    column: problem.column,
    message: importProblemMessage(problem.key as ImportProblemKey, { ...problem.values, detail }, lang),
  };
}
