import { describe, expect, it } from 'vitest';
import { FILE_LIMIT, FUNCTION_LIMIT, largeFiles, longFunctions, sourceFiles } from './room-size';

/**
 * Rooms of a human size (issue 41 item 5): no source file over {FILE_LIMIT} lines and no function or
 * component over {FUNCTION_LIMIT}, outside translations, the error catalogue, migrations and tests.
 * The lists below are what was larger when the check came in, at its size then: an entry may
 * shrink but not grow, nothing new may join, and an entry that fits again must be removed, so the
 * lists only get shorter as the rooms are split.
 */
const LARGE_FILES: Record<string, number> = {};

const LONG_FUNCTIONS: Record<string, number> = {};

function overruns(found: Record<string, number>, allowed: Record<string, number>): string[] {
  return Object.entries(found)
    .filter(([name, lines]) => lines > (allowed[name] ?? 0))
    .map(([name, lines]) => `${name}: ${lines} lines${name in allowed ? ` (was ${allowed[name]})` : ''}`);
}

const fitted = (found: Record<string, number>, allowed: Record<string, number>) =>
  Object.keys(allowed).filter((name) => !(name in found));

describe('rooms of a human size', () => {
  const files = sourceFiles();

  it(`keeps source files within ${FILE_LIMIT} lines`, () => {
    const found = largeFiles(files);
    expect(overruns(found, LARGE_FILES), 'split these files').toEqual([]);
    expect(fitted(found, LARGE_FILES), 'these fit now: remove them from LARGE_FILES').toEqual([]);
  });

  it(`keeps functions and components within ${FUNCTION_LIMIT} lines`, () => {
    const found = longFunctions(files);
    expect(overruns(found, LONG_FUNCTIONS), 'split these functions').toEqual([]);
    expect(fitted(found, LONG_FUNCTIONS), 'these fit now: remove them from LONG_FUNCTIONS').toEqual([]);
  });
});
