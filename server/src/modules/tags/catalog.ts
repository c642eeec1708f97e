import type { ErrorCode, TagOfFile } from '@dam/contract';
import { coded } from '../../http/app-error';
import type { DimensionRow, TagRow, TagsRepository } from './repository';

/** Why a tag set cannot be written; `dimensionId` is where the problem lies (for the import). */
export interface TagSetProblem {
  code: Extract<ErrorCode, 'SETG_02' | 'SETG_10' | 'SETG_11'>;
  values: Record<string, string | number>;
  dimensionId: number | null;
}

const bySortOrder = (a: { position: number; id: number }, b: { position: number; id: number }) =>
  a.position - b.position || a.id - b.id;

/**
 * All dimensions and tags, read once per request (at most 100 × 15 rows): the selector order of
 * SPEC §7 and the tag-set rules of SPEC §5. No SQL, no permissions.
 */
export class TagCatalog {
  /** Selector order: required top-level dimensions, other top-level ones, each followed by its children. */
  readonly ordered: readonly DimensionRow[];
  private readonly dimensionById: Map<number, DimensionRow>;
  private readonly tagById: Map<number, TagRow>;
  private readonly tagsByDimension = new Map<number, TagRow[]>();
  private readonly childrenByDimension = new Map<number, DimensionRow[]>();
  private readonly rank = new Map<number, number>();

  constructor(dimensions: readonly DimensionRow[], tags: readonly TagRow[]) {
    this.dimensionById = new Map(dimensions.map((d) => [d.id, d]));
    this.tagById = new Map(tags.map((t) => [t.id, t]));
    for (const tag of [...tags].sort(bySortOrder)) {
      const list = this.tagsByDimension.get(tag.dimension_id) ?? [];
      list.push(tag);
      this.tagsByDimension.set(tag.dimension_id, list);
    }
    const topLevel: DimensionRow[] = [];
    for (const dimension of [...dimensions].sort(bySortOrder)) {
      if (dimension.parent_id === null || !this.dimensionById.has(dimension.parent_id)) {
        topLevel.push(dimension);
        continue;
      }
      const siblings = this.childrenByDimension.get(dimension.parent_id) ?? [];
      siblings.push(dimension);
      this.childrenByDimension.set(dimension.parent_id, siblings);
    }
    // Stable: within each group the sort order stays.
    topLevel.sort((a, b) => Number(b.required) - Number(a.required));
    const ordered: DimensionRow[] = [];
    const visit = (dimension: DimensionRow) => {
      if (this.rank.has(dimension.id)) return;
      this.rank.set(dimension.id, ordered.length);
      ordered.push(dimension);
      for (const child of this.childrenByDimension.get(dimension.id) ?? []) visit(child);
    };
    for (const dimension of topLevel) visit(dimension);
    this.ordered = ordered;
  }

  static async load(repo: TagsRepository): Promise<TagCatalog> {
    const [dimensions, tags] = await Promise.all([repo.dimensions(), repo.tags()]);
    return new TagCatalog(dimensions, tags);
  }

  dimension(id: number): DimensionRow | undefined {
    return this.dimensionById.get(id);
  }

  tag(id: number): TagRow | undefined {
    return this.tagById.get(id);
  }

  /** Tags of a dimension in their saved order. */
  tagsOf(dimensionId: number): readonly TagRow[] {
    return this.tagsByDimension.get(dimensionId) ?? [];
  }

  childrenOf(dimensionId: number): readonly DimensionRow[] {
    return this.childrenByDimension.get(dimensionId) ?? [];
  }

  /** The dimension itself and every dimension below it. */
  subtreeOf(dimensionId: number): Set<number> {
    const found = new Set<number>();
    const walk = (id: number) => {
      if (found.has(id)) return;
      found.add(id);
      for (const child of this.childrenOf(id)) walk(child.id);
    };
    walk(dimensionId);
    return found;
  }

  /** A dimension by name, compared without case. */
  dimensionNamed(name: string): DimensionRow | undefined {
    const key = name.toLowerCase();
    return this.ordered.find((d) => d.name.toLowerCase() === key);
  }

  /** A tag of a dimension by name, compared without case. */
  tagNamed(dimensionId: number, name: string): TagRow | undefined {
    const key = name.toLowerCase();
    return this.tagsOf(dimensionId).find((t) => t.name.toLowerCase() === key);
  }

  /** Known tags among `ids`, each once, in selector order (dimension order, then tag order). */
  order(ids: Iterable<number>): TagRow[] {
    const tags = [...new Set(ids)].flatMap((id) => this.tagById.get(id) ?? []);
    return tags.sort(
      (a, b) =>
        (this.rank.get(a.dimension_id) ?? 0) - (this.rank.get(b.dimension_id) ?? 0) || bySortOrder(a, b),
    );
  }

  /** SPEC §3 file detail entry of a tag. */
  tagOfFile(tag: TagRow): TagOfFile {
    const dimension = this.dimensionById.get(tag.dimension_id);
    return {
      id: tag.id,
      tagName: tag.name,
      dimensionName: dimension?.name ?? '',
      dimensionId: tag.dimension_id,
      required: dimension?.required ?? false,
      parentTagId: tag.parent_id,
    };
  }

  tagsOfFile(ids: Iterable<number>): TagOfFile[] {
    return this.order(ids).map((tag) => this.tagOfFile(tag));
  }

  /**
   * The first reason a tag set cannot be written, or null. An empty set (untagged) is always
   * fine; otherwise every tag must exist, a tag with a superior tag needs that tag too, and every
   * required dimension needs a tag (all missing ones are named).
   */
  problem(ids: readonly number[]): TagSetProblem | null {
    if (ids.length === 0) return null;
    for (const id of ids) {
      if (!this.tagById.has(id)) return { code: 'SETG_02', values: { value: id }, dimensionId: null };
    }
    const chosen = new Set(ids);
    for (const tag of this.order(ids)) {
      if (tag.parent_id !== null && !chosen.has(tag.parent_id)) {
        const parent = this.tagById.get(tag.parent_id);
        return {
          code: 'SETG_11',
          values: { value: tag.name, parent: parent?.name ?? String(tag.parent_id) },
          dimensionId: tag.dimension_id,
        };
      }
    }
    const covered = new Set([...chosen].map((id) => this.tagById.get(id)?.dimension_id));
    const missing = this.ordered.filter((d) => d.required && !covered.has(d.id));
    if (missing.length > 0) {
      return {
        code: 'SETG_10',
        values: { dimension: missing.map((d) => d.name).join(', ') },
        dimensionId: missing[0]?.id ?? null,
      };
    }
    return null;
  }

  /** Throws the problem of `problem(ids)` as the caller's error. */
  check(ids: readonly number[]): void {
    const found = this.problem(ids);
    if (found) throw coded(found.code, found.values);
  }
}
