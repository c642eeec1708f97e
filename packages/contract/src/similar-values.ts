import { z } from 'zod';

/** The colour filter of the listing and the search (issue 17), apart so items.ts can use it without a cycle. */

/** The colour-search tolerances and their OKLab radius (OKLab ΔE × 100 reads like CIELAB ΔE). */
export const COLOUR_TOLERANCES = { tight: 0.05, normal: 0.08, loose: 0.12 } as const;
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
