import type { Item } from '@dam/contract';
import { describe, expect, it } from 'vitest';
import { groupByArtNum } from './groupByArtNum';

const item = (id: number, artNum: string | null) => ({ id, artNum }) as Item;

describe('batch search results grouped per article number', () => {
  it('groups in the order pasted, whatever the case, leaving out numbers with nothing loaded', () => {
    const groups = groupByArtNum(
      [item(1, 'CW2288-111'), item(2, 'gz5922'), item(3, 'cw2288-111'), item(4, 'GZ5922')],
      ['GZ5922', 'NOPE1', 'CW2288-111'],
    );
    expect(groups.map((g) => [g.value, g.items.map((i) => i.id)])).toEqual([
      ['GZ5922', [2, 4]],
      ['CW2288-111', [1, 3]],
    ]);
  });

  it('puts a file of another number under its own number, last', () => {
    const groups = groupByArtNum([item(1, 'OTHER12'), item(2, 'AB12-3')], ['AB12-3']);
    expect(groups.map((g) => g.value)).toEqual(['AB12-3', 'OTHER12']);
  });
});
