import { ItemType } from '@dam/contract';
/** SPEC §9: buttons step 0.1 within about 0.5–1.5; the wheel moves 5 % per 75 units. */
export const ZOOM_MIN = 0.5;
export const ZOOM_MAX = 1.5;
export const ZOOM_STEP = 0.1;

const clamp = (value: number) => Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Math.round(value * 100) / 100));

export function zoomByButton(current: number, direction: 1 | -1): number {
  return clamp(current + direction * ZOOM_STEP);
}

export function zoomByWheel(current: number, deltaY: number): number {
  return clamp(current * (1 - (deltaY / 75) * 0.05));
}

/** Rotation in 90° steps, kept within one turn. */
export function rotate(degrees: number): number {
  return (degrees + 90) % 360;
}

/** The next file in a listing, skipping folders (SPEC §5 viewer navigation); null at the end. */
export function neighbour<T extends { id: number; type: number }>(
  items: T[],
  currentId: number,
  step: 1 | -1,
): T | null {
  let index = items.findIndex((item) => item.id === currentId);
  if (index < 0) return null;
  for (index += step; index >= 0 && index < items.length; index += step) {
    const item = items[index] as T;
    if (item.type !== ItemType.folder) return item;
  }
  return null;
}
