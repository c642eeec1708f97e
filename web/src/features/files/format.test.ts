import { describe, expect, it } from 'vitest';
import { folderNameProblem, formatSize } from './format';

describe('file helpers', () => {
  it('writes sizes in b, kb, m, g, t', () => {
    expect(formatSize(512)).toBe('512b');
    expect(formatSize(1536)).toBe('1.5kb');
    expect(formatSize(5 * 1024 ** 3)).toBe('5.0g');
    expect(formatSize(300 * 1024 ** 2)).toBe('300m');
  });

  it('checks folder names as SPEC §5 asks', () => {
    expect(folderNameProblem('   ')).toEqual({ key: 'files.nameRequired' });
    expect(folderNameProblem('a$b|c')).toEqual({ key: 'files.nameIllegal', char: '$' });
    expect(folderNameProblem('x'.repeat(51))).toEqual({ key: 'files.nameTooLong' });
    expect(folderNameProblem('春季 2027')).toBeNull();
  });
});
