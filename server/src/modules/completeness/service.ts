import {
  COMPLETENESS_EXPORT_MAX_ROWS,
  COMPLETENESS_FILTER_OPTIONS_MAX,
  type CompletenessColumn,
  type CompletenessConfig,
  type CompletenessFilterOptions,
  type CompletenessReport,
  type CompletenessRow,
  type CompletenessTarget,
  type completenessConfigInputSchema,
  type completenessFilterSchema,
  type completenessReportRequestSchema,
  FunctionCode,
  ItemType,
} from '@dam/contract';
import type { z } from 'zod';
import { invalidField } from '../../http/app-error';
import { type Clock, calendarDate } from '../../lib/clock';
import {
  type AuthContext,
  administrationReach,
  fileScopeFilter,
  requireAnyCode,
  withinReach,
} from '../access/access';
import { canSee, canUploadInto } from '../items/policy';
import type {
  CompletenessRepository,
  ReportScope,
  SeasonCounts,
  SkuOfReport,
  ViewRecord,
} from './repository';
import { type CompletenessSheet, completenessWorkbook } from './workbook';

type ConfigInput = z.output<typeof completenessConfigInputSchema>;
type Filter = z.output<typeof completenessFilterSchema>;
type ReportRequest = z.output<typeof completenessReportRequestSchema>;

/** The report's columns: each view's formats, in the views' order. */
export function columnsOf(views: ViewRecord[]): CompletenessColumn[] {
  return views.flatMap((view) =>
    view.formats.map((format) => ({ viewId: view.id, viewName: view.name, code: view.code, format })),
  );
}

/**
 * The SKU completeness report (issue 14). Every call needs function code 6 (data reports); what
 * the report counts is what the caller may see: their own files and shared ones within their view
 * scope (access/visibility.repository `visibleTo`), so the report never reveals a file, not even as a
 * tick, that the file listings would not show them. The expectation is saved as a whole in one
 * transaction; a refused save changes nothing.
 */
export class CompletenessService {
  constructor(
    private readonly repo: CompletenessRepository,
    private readonly clock: Clock,
    private readonly timeZone: string,
  ) {}

  async config(auth: AuthContext): Promise<CompletenessConfig> {
    requireAnyCode(auth, FunctionCode.data);
    const [views, folder] = await Promise.all([this.repo.views(), this.repo.defaultFolder()]);
    return {
      views: views.map(({ matchAny: _any, ...view }) => view),
      // A default folder the caller may not see is not named to them.
      defaultFolder: folder && canSee(auth, folder) ? { id: folder.id, path: folder.path } : null,
    };
  }

  async saveConfig(auth: AuthContext, input: ConfigInput): Promise<void> {
    requireAnyCode(auth, FunctionCode.data);
    for (const [index, view] of input.views.entries()) {
      if (view.tagId !== null && !(await this.repo.tagExists(view.tagId)))
        throw invalidField(`views.${index}.tagId`, 'invalidValue');
    }
    if (input.defaultFolderId !== null) {
      const folder = await this.repo.folder(input.defaultFolderId);
      // Unknown, deleted, not a folder, or one the caller may not see: the same answer.
      if (!folder || folder.type !== ItemType.folder || folder.state !== 1 || !canSee(auth, folder))
        throw invalidField('defaultFolderId', 'invalidValue');
    }
    await this.repo.transaction(async (repo) => {
      await repo.replaceViews(input.views, auth.userId, this.clock.now());
      await repo.setDefaultFolder(input.defaultFolderId);
    });
  }

  async filterOptions(auth: AuthContext): Promise<CompletenessFilterOptions> {
    requireAnyCode(auth, FunctionCode.data);
    // Departments as far as the caller administers: their subtree, or all for an "all" reach.
    const reach = administrationReach(auth);
    return this.repo.filterOptions(
      COMPLETENESS_FILTER_OPTIONS_MAX,
      reach.kind === 'subtree' ? reach.pathPrefix : reach.kind === 'none' ? null : undefined,
    );
  }

  private async scopeOf(auth: AuthContext, filter: Filter, views: ViewRecord[]): Promise<ReportScope> {
    const tags = await this.repo.tagDimensions(filter.tagIdList ?? []);
    const known = new Set(tags.map((tag) => tag.id));
    const unknown = (filter.tagIdList ?? []).find((tagId) => !known.has(tagId));
    if (unknown !== undefined) throw invalidField('tagIdList', 'invalidValue', { value: unknown });
    const groups = new Map<number, number[]>();
    for (const tag of tags) groups.set(tag.dimensionId, [...(groups.get(tag.dimensionId) ?? []), tag.id]);
    let deptPath: string | undefined;
    if (filter.deptId !== undefined) {
      const path = await this.repo.departmentPath(filter.deptId);
      // A department outside the caller's reach is answered as one that does not exist.
      if (path === null || !withinReach(administrationReach(auth), path))
        throw invalidField('deptId', 'invalidValue');
      deptPath = path;
    }
    return {
      viewer: { userId: auth.userId, view: fileScopeFilter(auth, 'view') },
      day: calendarDate(this.clock.now(), this.timeZone),
      ...(filter.seasons?.length ? { seasons: filter.seasons } : {}),
      ...(filter.categories?.length ? { categories: filter.categories } : {}),
      tagGroups: [...groups.values()],
      tagViews: views.some((view) => view.tagId !== null),
      ...(deptPath ? { deptPath } : {}),
      ...(filter.artNum ? { artNumPrefix: filter.artNum.toLowerCase() } : {}),
    };
  }

  /** The page's rows: a tick per column, and where an upload of a missing view would go. */
  private async rowsOf(
    auth: AuthContext,
    scope: ReportScope,
    columns: CompletenessColumn[],
    skus: SkuOfReport[],
  ): Promise<CompletenessRow[]> {
    const details = await this.repo.details(
      scope,
      skus.map((s) => s.skuId),
    );
    const present = new Set(details.cells.map((c) => `${c.skuId}:${c.viewId}:${c.format}`));
    const folders = new Map(details.folders.map((f) => [f.skuId, f]));
    const fallback = await this.fallbackTarget(auth);
    return skus.map((sku) => {
      const folder = folders.get(sku.skuId);
      const target: CompletenessTarget | null = folder
        ? { id: folder.folderId ?? 'all', path: folder.path }
        : fallback;
      return {
        skuId: sku.skuId,
        artNum: sku.artNum,
        name: sku.name,
        season: sku.season,
        category: sku.category,
        cells: columns.map((c) => present.has(`${sku.skuId}:${c.viewId}:${c.format}`)),
        present: sku.present,
        expected: columns.length,
        target,
      };
    });
  }

  /** The configured default folder when the caller may upload into it; else none. */
  private async fallbackTarget(auth: AuthContext): Promise<CompletenessTarget | null> {
    const folder = await this.repo.defaultFolder();
    if (!folder || !canUploadInto(auth, folder)) return null;
    return { id: folder.id, path: folder.path };
  }

  async report(auth: AuthContext, request: ReportRequest): Promise<CompletenessReport> {
    requireAnyCode(auth, FunctionCode.data);
    const views = await this.repo.views();
    const scope = await this.scopeOf(auth, request, views);
    const columns = columnsOf(views);
    const expected = columns.length;
    const offset = (request.pageNo - 1) * request.pageSize;
    // Without a status the page needs only its own articles; with one, every article's count.
    let seasons: SeasonCounts[];
    let skus: SkuOfReport[];
    if (request.status === 'all') {
      seasons = await this.repo.seasons(scope, expected);
      const total = seasons.reduce((sum, s) => sum + s.skuCount, 0);
      skus = offset < total ? await this.repo.page(scope, offset, request.pageSize) : [];
    } else {
      ({ seasons, page: skus } = await this.repo.seasonsAndPage(
        scope,
        expected,
        request.status,
        offset,
        request.pageSize,
      ));
    }
    const skuCount = seasons.reduce((sum, s) => sum + s.skuCount, 0);
    const completeCount = seasons.reduce((sum, s) => sum + s.completeCount, 0);
    const total =
      request.status === 'complete'
        ? completeCount
        : request.status === 'incomplete'
          ? skuCount - completeCount
          : skuCount;
    return {
      columns,
      list: await this.rowsOf(auth, scope, columns, skus),
      total,
      pageNo: request.pageNo,
      pageSize: request.pageSize,
      seasons: seasons.map((s) => ({ ...s, cellsExpected: s.skuCount * expected })),
    };
  }

  /** The filtered list as a workbook: one sheet of articles, one of counts per season. */
  async export(
    auth: AuthContext,
    filter: Filter,
    lang: string,
  ): Promise<{ bytes: Buffer; fileName: string; rows: number; total: number }> {
    // One reading picks the articles in order (at most the export's limit) with the counts per
    // season; their cells are then read a thousand at a time.
    const report = await this.report(auth, { ...filter, pageNo: 1, pageSize: 1 });
    const views = await this.repo.views();
    const scope = await this.scopeOf(auth, filter, views);
    const columns = columnsOf(views);
    const limit = Math.min(report.total, COMPLETENESS_EXPORT_MAX_ROWS);
    const skus =
      limit === 0
        ? []
        : filter.status === 'all'
          ? await this.repo.page(scope, 0, limit)
          : (await this.repo.seasonsAndPage(scope, columns.length, filter.status, 0, limit)).page;
    const rows: CompletenessRow[] = [];
    for (let start = 0; start < skus.length; start += 1000)
      rows.push(...(await this.rowsOf(auth, scope, columns, skus.slice(start, start + 1000))));
    const sheet: CompletenessSheet = {
      columns,
      rows,
      total: report.total,
      seasons: report.seasons,
      exportedAt: this.clock.now(),
      timeZone: this.timeZone,
    };
    const chinese = lang === 'zh';
    const bytes = await completenessWorkbook(sheet, chinese ? 'zh' : 'en');
    const day = calendarDate(this.clock.now(), this.timeZone);
    return {
      bytes,
      fileName: chinese ? `货号完整度-${day}.xlsx` : `sku-completeness-${day}.xlsx`,
      rows: rows.length,
      total: report.total,
    };
  }
}
