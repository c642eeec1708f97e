import { type MetadataMappingSource, OperationCode } from '@dam/contract';
import type { LogActor } from '../logs/service';
import type { LogSubject } from '../logs/snapshot';
import { TagCatalog } from '../tags/catalog';
import { planMapping } from './plan';
import type { MetadataMappingRepository } from './repository';

/** What writes the operation log (LogsService.record). */
type RecordLog = (actor: LogActor, code: OperationCode, subject: LogSubject) => Promise<void>;

/**
 * Applies the keyword → tag rules to a record's file right after its metadata is stored (the
 * media job and the back-fill: MetadataReader's afterSave). One transaction: the tags the file
 * lacks are added, conflicts and unmatched values recorded; nothing is replaced, removed or
 * created. A second reading adds and records nothing new.
 */
export class MetadataTagMapper {
  constructor(
    private readonly deps: {
      repo: MetadataMappingRepository;
      now: () => Date;
      log: RecordLog;
      warn: (details: Record<string, unknown>, message: string) => void;
    },
  ) {}

  async apply(uploadId: number): Promise<void> {
    // Every upload passes here: without rules (most archives) one read, no transaction.
    if ((await this.deps.repo.rules()).length === 0) return;
    const applied = await this.deps.repo.transaction(async (repo, tags) => {
      const rules = await repo.rules();
      if (rules.length === 0) return null;
      const record = await repo.recordForMapping(uploadId);
      if (!record) return null;
      const catalog = await TagCatalog.load(tags);
      const current = (await tags.tagIdsOfItems([record.itemId])).get(record.itemId) ?? [];
      const plan = planMapping(
        catalog,
        rules.map((rule) => ({
          source: rule.source as MetadataMappingSource,
          dimensionId: rule.dimension_id,
        })),
        record.fields,
        current,
      );
      // Tags deleted meanwhile are not added (the lock keeps the rest until commit).
      const known = await tags.lockTags(plan.add);
      const add = plan.add.filter((id) => known.has(id));
      await tags.addItemTags([record.itemId], add);
      await repo.insertFindings(uploadId, record.itemId, plan.findings, this.deps.now());
      return { ...record, add, names: add.map((id) => catalog.tag(id)?.name ?? String(id)) };
    });
    if (!applied || applied.add.length === 0) return;
    // As file/modify-tag logs it, with the uploader as operator (the job has no request).
    await this.deps
      .log({ userId: applied.userId, ip: null, userAgent: null }, OperationCode.updateTags, {
        items: [applied.itemId],
        newValue: applied.add.join(','),
        details: { mode: 'add', by: 'metadataMapping', tagIdList: applied.add, tagNames: applied.names },
      })
      .catch((err: Error) => this.deps.warn({ err, uploadId }, 'operation log entry not written'));
  }
}
