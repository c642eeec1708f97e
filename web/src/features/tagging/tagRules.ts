import type { TagDimension } from '@dam/contract';

/** Why a set of tags cannot be saved: the rules of SPEC §5, as the server checks them. */
export type TagSetProblem =
  | { kind: 'missingParent'; tag: string; parent: string }
  | { kind: 'missingRequired'; dimensions: string[] };

/**
 * The first problem of a tag set, or null. Untagged (empty) is always fine; otherwise a tag under
 * a superior tag needs that tag too, and every required dimension needs a tag. The server checks
 * the same (tags/catalog.ts); the dialog says it before anything is sent.
 */
export function tagSetProblem(dimensions: TagDimension[], ids: readonly number[]): TagSetProblem | null {
  if (ids.length === 0) return null;
  const chosen = new Set(ids);
  const tags = new Map(dimensions.flatMap((d) => d.tagDTOList.map((tag) => [tag.id, tag] as const)));
  for (const dimension of dimensions) {
    for (const tag of dimension.tagDTOList) {
      if (!chosen.has(tag.id) || tag.parentTagId === null || chosen.has(tag.parentTagId)) continue;
      return { kind: 'missingParent', tag: tag.tagName, parent: tags.get(tag.parentTagId)?.tagName ?? '' };
    }
  }
  const missing = dimensions.filter((d) => d.required && !d.tagDTOList.some((tag) => chosen.has(tag.id)));
  return missing.length > 0
    ? { kind: 'missingRequired', dimensions: missing.map((d) => d.dimensionName) }
    : null;
}

/** Choosing or dropping one tag: dropping a superior tag drops the tags under it too. */
export function toggleTag(dimensions: TagDimension[], ids: readonly number[], id: number): number[] {
  if (!ids.includes(id)) return [...ids, id];
  const dropped = new Set([id]);
  // Tags under a dropped tag go with it, and tags under those, however deep.
  for (let grew = true; grew; ) {
    grew = false;
    for (const tag of dimensions.flatMap((d) => d.tagDTOList)) {
      if (tag.parentTagId !== null && dropped.has(tag.parentTagId) && !dropped.has(tag.id)) {
        dropped.add(tag.id);
        grew = true;
      }
    }
  }
  return ids.filter((x) => !dropped.has(x));
}

/** Tags a user can pick now: top-level ones, and those whose superior tag is chosen. */
export function visibleTags(dimension: TagDimension, ids: readonly number[]) {
  return dimension.tagDTOList.filter((tag) => tag.parentTagId === null || ids.includes(tag.parentTagId));
}
