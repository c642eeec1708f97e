import type { MappingFindingReason, MetadataMappingSource } from '@dam/contract';
import type { TagCatalog } from '../tags/catalog';

/** The values of the embedded fields a rule may read, as stored in upload_metadata. */
export type MappedFields = Record<MetadataMappingSource, readonly string[]>;

export interface MappingRule {
  source: MetadataMappingSource;
  dimensionId: number;
}

/** A value a rule could not apply, as recorded (metadata_tag_findings). */
export interface PlannedFinding {
  source: MetadataMappingSource;
  dimensionId: number;
  value: string;
  reason: MappingFindingReason;
  detail: string[];
}

export interface MappingPlan {
  /** Tags to add to the file, in selector order. */
  add: number[];
  findings: PlannedFinding[];
}

/** Each value once (trimmed, compared without case), empty ones left out. */
function distinctValues(values: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const raw of values) {
    const value = raw.trim();
    if (value !== '' && !seen.has(value.toLowerCase())) seen.set(value.toLowerCase(), value);
  }
  return [...seen.values()];
}

interface Candidate {
  tagId: number;
  dimensionId: number;
  source: MetadataMappingSource;
  value: string;
}

/**
 * What the rules do to one file (pure: no SQL). A value becomes the tag of each of its field's rules'
 * dimensions named alike (trimmed, without case), and is `unmatched` when none has such a tag; what the file has is never replaced or removed: a file that
 * already has another tag of the dimension keeps it and the value is a `taken` conflict. The SPEC §5
 * tag-set rules are kept: a tag whose superior tag the file would lack is a `parent` conflict, and a
 * set that would leave a required dimension empty turns every addition into a `required` conflict.
 */
export function planMapping(
  catalog: TagCatalog,
  rules: readonly MappingRule[],
  fields: MappedFields,
  current: readonly number[],
): MappingPlan {
  const has = new Set(current);
  const findings: PlannedFinding[] = [];
  const candidates = new Map<number, Candidate>();
  const bySource = new Map<MetadataMappingSource, number[]>();
  for (const rule of rules) {
    if (!catalog.dimension(rule.dimensionId)) continue;
    bySource.set(rule.source, [...(bySource.get(rule.source) ?? []), rule.dimensionId]);
  }
  for (const [source, dimensionIds] of bySource) {
    for (const value of distinctValues(fields[source])) {
      // Unmatched only when no dimension this field maps to has a tag of that name.
      let matched = false;
      for (const dimensionId of dimensionIds) {
        const tag = catalog.tagNamed(dimensionId, value);
        if (!tag) continue;
        matched = true;
        if (has.has(tag.id) || candidates.has(tag.id)) continue;
        const existing = catalog.order(current).filter((t) => t.dimension_id === dimensionId);
        if (existing.length > 0)
          findings.push({ source, dimensionId, value, reason: 'taken', detail: existing.map((t) => t.name) });
        else candidates.set(tag.id, { source, dimensionId, value, tagId: tag.id });
      }
      if (!matched) {
        const detail = dimensionIds.map((id) => catalog.dimension(id)?.name ?? String(id));
        findings.push({ source, dimensionId: dimensionIds[0] as number, value, reason: 'unmatched', detail });
      }
    }
  }
  // Dropping one candidate may orphan another below it: until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const candidate of candidates.values()) {
      const parentId = catalog.tag(candidate.tagId)?.parent_id ?? null;
      if (parentId === null || has.has(parentId) || candidates.has(parentId)) continue;
      candidates.delete(candidate.tagId);
      findings.push(conflictOf(candidate, 'parent', [catalog.tag(parentId)?.name ?? String(parentId)]));
      changed = true;
    }
  }
  const add = catalog.order(candidates.keys()).map((tag) => tag.id);
  if (add.length > 0) {
    const problem = catalog.problem([...has, ...add]);
    if (problem) {
      const missing = catalog.ordered.filter((d) => d.required);
      const covered = new Set(catalog.order([...has, ...add]).map((tag) => tag.dimension_id));
      const names = missing.filter((d) => !covered.has(d.id)).map((d) => d.name);
      for (const candidate of candidates.values()) findings.push(conflictOf(candidate, 'required', names));
      return { add: [], findings };
    }
  }
  return { add, findings };
}

function conflictOf(candidate: Candidate, reason: MappingFindingReason, detail: string[]): PlannedFinding {
  const { source, dimensionId, value } = candidate;
  return { source, dimensionId, value, reason, detail };
}
