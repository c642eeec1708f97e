import { z } from 'zod';

/** The colour filter of the listing and the search (issue 17), apart so items.ts can use it without a cycle. */

/**
 * The OKLab radius of each tolerance (OKLab ΔE × 100 reads like CIELAB ΔE): now only the viewer's
 * "same colours" section's limit (the loose one). The colour filter matches colour families.
 */
export const COLOUR_TOLERANCES = { tight: 0.05, normal: 0.08, loose: 0.12 } as const;
/**
 * What a tolerance means to the colour filter (issue 39 defect 1): how much of the picture (‰)
 * the chosen colour's family must cover at least. "Normal" is 15 %: a background, a garment or a
 * product counts, a logo or a small accent does not.
 */
export const COLOUR_MIN_SHARES = { tight: 300, normal: 150, loose: 80 } as const;
export type ColourTolerance = keyof typeof COLOUR_TOLERANCES;
export const colourToleranceSchema = z.enum(['tight', 'normal', 'loose']);

/** `#rrggbb`, lower-cased. */
export const colourHexSchema = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, { error: 'invalidColour' })
  .transform((value) => value.toLowerCase());

/** The colour filter of the listing and the search (both fields optional; tolerance only with a colour). */
export const colourFilterFields = {
  colour: colourHexSchema.optional(),
  colourTolerance: colourToleranceSchema.optional(),
};
