import { describe, expect, it } from 'vitest';
import { neighbour, rotate, zoomByButton, zoomByWheel } from './zoom';

describe('viewer controls (SPEC §9)', () => {
  it('zooms by 0.1 per button press within 0.5–1.5', () => {
    expect(zoomByButton(1, 1)).toBe(1.1);
    expect(zoomByButton(1.5, 1)).toBe(1.5);
    expect(zoomByButton(0.5, -1)).toBe(0.5);
  });

  it('zooms 5 % per 75 wheel units', () => {
    expect(zoomByWheel(1, -75)).toBe(1.05);
    expect(zoomByWheel(1, 150)).toBe(0.9);
  });

  it('rotates in quarter turns', () => {
    expect([90, 180, 270, 0].map((d) => rotate(d))).toEqual([180, 270, 0, 90]);
  });

  it('steps over folders and stops at the ends', () => {
    const items = [
      { id: 1, type: 2 },
      { id: 2, type: 1 },
      { id: 3, type: 2 },
    ];
    expect(neighbour(items, 1, 1)?.id).toBe(3);
    expect(neighbour(items, 3, -1)?.id).toBe(1);
    expect(neighbour(items, 3, 1)).toBeNull();
    expect(neighbour(items, 1, -1)).toBeNull();
  });
});
