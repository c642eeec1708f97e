import {
  FunctionCode,
  type MappingFinding,
  type MappingFindingReason,
  type MappingFindingsPage,
  type MetadataMappingSource,
  type MetadataTagRule,
  type saveMetadataTagRuleRequestSchema,
} from '@dam/contract';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/sql-helpers';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { type AuthContext, requireAnyCode } from '../access/access';
import { viewerOf } from '../items/item-pages';
import { visibleFile } from '../items/lookup';
import type { ItemsRepository } from '../items/repository';
import type { FindingRow, MetadataMappingRepository, RuleRow } from './repository';

const ruleDto = (row: RuleRow): MetadataTagRule => ({
  id: row.id,
  source: row.source as MetadataMappingSource,
  dimensionId: row.dimension_id,
  dimensionName: row.dimension_name,
  updatedAt: row.updated_at.toISOString(),
});

const findingDto = (row: FindingRow): MappingFinding => ({
  id: row.id,
  fileId: row.item_id,
  fileName: row.file_name,
  recordId: row.upload_id,
  source: row.source as MetadataMappingSource,
  dimensionId: row.dimension_id,
  dimensionName: row.dimension_name,
  value: row.value,
  reason: row.reason as MappingFindingReason,
  detail: row.detail,
  createdAt: row.created_at.toISOString(),
});

/**
 * Keyword → tag mapping rules (issue 42): managed by tag management (function code 4), like the
 * download presets; what they could not apply is shown to whoever may see the file.
 */
export class MetadataMappingService {
  constructor(
    private readonly deps: { repo: MetadataMappingRepository; items: ItemsRepository; clock: Clock },
  ) {}

  async rules(auth: AuthContext): Promise<MetadataTagRule[]> {
    requireAnyCode(auth, FunctionCode.tag);
    return (await this.deps.repo.rules()).map(ruleDto);
  }

  async saveRule(
    auth: AuthContext,
    body: z.output<typeof saveMetadataTagRuleRequestSchema>,
  ): Promise<MetadataTagRule> {
    requireAnyCode(auth, FunctionCode.tag);
    const values = { source: body.source, dimension_id: body.dimensionId };
    const now = this.deps.clock.now();
    try {
      const id = await this.deps.repo.transaction(async (repo) => {
        if (!(await repo.lockDimension(body.dimensionId))) throw new AppError('SETG_01');
        if (body.id === undefined) return repo.insertRule(values, auth.userId, now);
        if (!(await repo.updateRule(body.id, values, now))) throw new AppError('SE_404');
        return body.id;
      });
      const saved = await this.deps.repo.rule(id);
      if (!saved) throw new AppError('SE_404');
      return ruleDto(saved);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('SEMM_01');
      throw error;
    }
  }

  async deleteRule(auth: AuthContext, id: number): Promise<void> {
    requireAnyCode(auth, FunctionCode.tag);
    if (!(await this.deps.repo.deleteRule(id))) throw new AppError('SE_404');
  }

  /** The admin screen's recent findings: of live files the caller may see, newest first. */
  async findings(
    auth: AuthContext,
    paging: { pageNo: number; pageSize: number },
  ): Promise<MappingFindingsPage> {
    requireAnyCode(auth, FunctionCode.tag);
    const { rows, total } = await this.deps.repo.findingsPage(viewerOf(auth), {
      limit: paging.pageSize,
      offset: (paging.pageNo - 1) * paging.pageSize,
    });
    return { list: rows.map(findingDto), total, pageNo: paging.pageNo, pageSize: paging.pageSize };
  }

  /** The viewer's metadata section: what the rules could not apply to this file. */
  async ofFile(auth: AuthContext, itemId: number): Promise<{ list: MappingFinding[] }> {
    // Hidden answers like unknown, so ids cannot be probed (docs/decisions.md, Errors).
    await visibleFile(this.deps.items, auth, itemId);
    return { list: (await this.deps.repo.findingsOfItem(itemId)).map(findingDto) };
  }
}
