import type { ColourTolerance } from '@dam/contract';

/**
 * The colour filter's swatches (plan §8; issue 39: one per colour family, so a swatch finds every
 * shade of its family), in the order shown; names are `colour.name.<key>`. Each hex is of its own
 * family (`colourFamilyOfHex`, colours.test.ts).
 */
export const COLOUR_PRESETS = [
  { key: 'red', hex: '#cc0000' },
  { key: 'orange', hex: '#f57c00' },
  { key: 'yellow', hex: '#fdd835' },
  { key: 'green', hex: '#2e7d32' },
  { key: 'cyan', hex: '#00897b' },
  { key: 'blue', hex: '#1565c0' },
  { key: 'purple', hex: '#7b1fa2' },
  { key: 'pink', hex: '#ec407a' },
  { key: 'brown', hex: '#795548' },
  { key: 'black', hex: '#000000' },
  { key: 'white', hex: '#ffffff' },
  { key: 'grey', hex: '#9e9e9e' },
] as const;

export const COLOUR_TOLERANCE_LIST: ColourTolerance[] = ['tight', 'normal', 'loose'];
export const DEFAULT_COLOUR_TOLERANCE: ColourTolerance = 'normal';

/** `#rrggbb` lower-cased, or null for anything else. */
export function cleanColour(value: unknown): string | null {
  return typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value.trim())
    ? value.trim().toLowerCase()
    : null;
}

export function isColourTolerance(value: unknown): value is ColourTolerance {
  return (COLOUR_TOLERANCE_LIST as unknown[]).includes(value);
}
