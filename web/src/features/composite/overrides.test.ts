import type { MakerArticle } from '@dam/contract';
import { describe, expect, it } from 'vitest';
import { effectiveChoices, overrideList, setOverride } from './overrides';

describe('slot overrides', () => {
  it('keeps a hand-chosen file per article and slot, and drops it when it is what the rule chose', () => {
    let overrides = setOverride({}, 'AB1', 'front', 7, 3);
    overrides = setOverride(overrides, 'AB1', 'grid:1', 9, null);
    overrides = setOverride(overrides, 'CD2', 'front', 4, 5);
    expect(overrides).toEqual({ AB1: { front: 7, 'grid:1': 9 }, CD2: { front: 4 } });
    overrides = setOverride(overrides, 'CD2', 'front', 5, 5);
    expect(overrides).toEqual({ AB1: { front: 7, 'grid:1': 9 } });
    overrides = setOverride(overrides, 'AB1', 'front', null, 3);
    expect(overrides).toEqual({ AB1: { 'grid:1': 9 } });
  });

  it('sends the overrides of the rendered articles only', () => {
    const overrides = { AB1: { front: 7 }, CD2: { side: 8 } };
    expect(overrideList(overrides, ['AB1'])).toEqual([{ artNum: 'AB1', slot: 'front', itemId: 7 }]);
  });

  it('shows the hand-chosen file where there is one, else the rule’s', () => {
    const article: MakerArticle = {
      artNum: 'AB1',
      fields: null,
      candidates: [],
      slots: [
        { slot: 'front', label: 'front', rule: { kind: 'view', code: 'front' }, required: true, chosen: 3 },
        { slot: 'side', label: 'side', rule: { kind: 'view', code: 'side' }, required: true, chosen: null },
      ],
    };
    expect(effectiveChoices(article, { side: 9 })).toEqual({ front: 3, side: 9 });
  });
});
