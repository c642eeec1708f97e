import type { TagDimension } from '@dam/contract';
import { describe, expect, it } from 'vitest';
import { tagSetProblem, toggleTag, visibleTags } from './tagRules';

const tag = (id: number, tagName: string, parentTagId: number | null = null, required = false) => ({
  id,
  tagName,
  parentTagId,
  required,
  selected: false,
});
const dimensions: TagDimension[] = [
  {
    id: 1,
    dimensionName: 'Season',
    required: true,
    parentDimensionId: null,
    tagDTOList: [tag(1, '2026 SS', null, true), tag(2, '2026 AW', null, true)],
  },
  {
    id: 2,
    dimensionName: 'Category',
    required: false,
    parentDimensionId: null,
    tagDTOList: [tag(3, 'Shoes')],
  },
  {
    id: 3,
    dimensionName: 'Sub-category',
    required: false,
    parentDimensionId: 2,
    tagDTOList: [tag(4, 'Running', 3), tag(5, 'Trail', 4)],
  },
];

describe('the add-tag dialog’s rules (SPEC §5, as the server checks them)', () => {
  it('lets a file be untagged, and asks for a tag of every required dimension otherwise', () => {
    expect(tagSetProblem(dimensions, [])).toBeNull();
    expect(tagSetProblem(dimensions, [3])).toEqual({ kind: 'missingRequired', dimensions: ['Season'] });
    expect(tagSetProblem(dimensions, [1, 3])).toBeNull();
  });

  it('needs a tag’s superior tag', () => {
    expect(tagSetProblem(dimensions, [1, 4])).toEqual({
      kind: 'missingParent',
      tag: 'Running',
      parent: 'Shoes',
    });
    expect(tagSetProblem(dimensions, [1, 3, 4])).toBeNull();
  });

  it('shows a tag once its superior tag is chosen, and drops it with that tag', () => {
    expect(visibleTags(dimensions[2]!, [1]).map((t) => t.tagName)).toEqual([]);
    expect(visibleTags(dimensions[2]!, [1, 3]).map((t) => t.tagName)).toEqual(['Running']);
    expect(toggleTag(dimensions, [1, 3, 4, 5], 3)).toEqual([1]);
    expect(toggleTag(dimensions, [1], 3)).toEqual([1, 3]);
  });
});
