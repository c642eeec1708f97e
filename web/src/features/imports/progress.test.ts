import { describe, expect, it } from 'vitest';
import { isBusy, progressPercent } from './progress';

describe('import progress', () => {
  it('is the share of rows the job has gone through, whole once checked or applied', () => {
    expect(progressPercent({ status: 'checking', processed: 0, total: 1200 })).toBe(0);
    expect(progressPercent({ status: 'checking', processed: 500, total: 1200 })).toBe(41);
    expect(progressPercent({ status: 'applying', processed: 1200, total: 1200 })).toBe(100);
    expect(progressPercent({ status: 'checked', processed: 0, total: 3 })).toBe(100);
    expect(progressPercent({ status: 'rejected', processed: 3, total: 3 })).toBe(100);
    expect(progressPercent({ status: 'failed', processed: 1, total: 4 })).toBe(25);
  });

  it('polls only while a job is at work', () => {
    expect(isBusy(undefined)).toBe(false);
    expect(isBusy({ status: 'checking' })).toBe(true);
    expect(isBusy({ status: 'applying' })).toBe(true);
    expect(isBusy({ status: 'checked' })).toBe(false);
    expect(isBusy({ status: 'applied' })).toBe(false);
  });
});
