import {
  COLOUR_MIN_SHARES,
  type ColourFamilyCode,
  type ColourTolerance,
  colourFamilyOfHex,
} from '@dam/contract';

/**
 * The colour filter of the folder listing and the search (issue 39 defect 1, replacing issue 17's
 * "within ΔE 0.08 of one shade"): files whose picture is at least `minShare` ‰ of the chosen
 * colour's family (`item_colour_families`). A swatch or a picked colour stands for its family
 * (`colourFamilyOf`), and the tolerance says how much of the picture it must cover
 * (`COLOUR_MIN_SHARES`: 30, 15 or 8 %), each with its own partial index.
 */
export interface ColourFilter {
  family: ColourFamilyCode;
  /** One of COLOUR_MIN_SHARES' values: the partial index `item_colour_families_<minShare>`. */
  minShare: number;
}

/** The filter of a `#rrggbb` colour at a tolerance ("normal" unless named). */
export function colourFilterOf(hex: string, tolerance: ColourTolerance | undefined): ColourFilter {
  return { family: colourFamilyOfHex(hex), minShare: COLOUR_MIN_SHARES[tolerance ?? 'normal'] };
}
