import { COLOUR_TOLERANCES, type ColourTolerance, cellsNear, oklabOfHex } from '@dam/contract';

/**
 * The colour filter of the folder listing and the search (issue 17, plan §8): files with a dominant
 * colour of at least `minWeight` ‰ within `radius` of the chosen colour, all in OKLab × 1000
 * integers as `item_colours` stores them. `cells` are the index cells that may hold such a colour,
 * so the SQL reads only their ranges of `item_colours_cell_time`.
 */
export interface ColourFilter {
  l: number;
  a: number;
  b: number;
  /** OKLab distance × 1000 (80 = "normal"). */
  radius: number;
  minWeight: number;
  cells: number[];
}

/** A colour must cover at least 10 % of the picture to count. */
export const COLOUR_MIN_WEIGHT = 100;

/** The filter of a `#rrggbb` colour at a tolerance ("normal" unless named). */
export function colourFilterOf(hex: string, tolerance: ColourTolerance | undefined): ColourFilter {
  const { l, a, b } = oklabOfHex(hex);
  const radius = COLOUR_TOLERANCES[tolerance ?? 'normal'];
  return {
    l,
    a,
    b,
    radius: Math.round(radius * 1000),
    minWeight: COLOUR_MIN_WEIGHT,
    cells: cellsNear(l, a, b, radius),
  };
}
