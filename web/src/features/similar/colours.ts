import type { ColourTolerance } from '@dam/contract';

/** The colour filter's presets (plan §8), in the order shown; names are `colour.name.<key>`. */
export const COLOUR_PRESETS = [
  { key: 'red', hex: '#cc0000' },
  { key: 'orange', hex: '#f57c00' },
  { key: 'yellow', hex: '#fdd835' },
  { key: 'green', hex: '#2e7d32' },
  { key: 'blue', hex: '#1565c0' },
  { key: 'purple', hex: '#7b1fa2' },
  { key: 'black', hex: '#000000' },
  { key: 'white', hex: '#ffffff' },
  { key: 'grey', hex: '#9e9e9e' },
  { key: 'brown', hex: '#795548' },
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
