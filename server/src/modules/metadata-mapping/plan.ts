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
 * What the rules do to one file (pure: no SQL). A value becomes the tag of the rule's dimension
 * named alike (trimmed, without case); what the file has is never replaced or removed: a file that
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
  for (const rule of rules) {
    if (!catalog.dimension(rule.dimensionId)) continue;
    const existing = catalog.order(current).filter((tag) => tag.dimension_id === rule.dimensionId);
    for (const value of distinctValues(fields[rule.source])) {
      const found = { source: rule.source, dimensionId: rule.dimensionId, value };
      const tag = catalog.tagNamed(rule.dimensionId, value);
      if (!tag) findings.push({ ...found, reason: 'unmatched', detail: [] });
      else if (has.has(tag.id) || candidates.has(tag.id)) continue;
      else if (existing.length > 0)
        findings.push({ ...found, reason: 'taken', detail: existing.map((t) => t.name) });
      else candidates.set(tag.id, { ...found, tagId: tag.id });
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
