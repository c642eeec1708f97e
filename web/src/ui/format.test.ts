import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../i18n/en';
import { fileNameProblem, folderNameProblem, formatSize, nameProblemText } from './format';

describe('file helpers', () => {
  it('writes sizes in B, KB, MB, GB, TB with a space (issue 39 item 13)', () => {
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(1.4 * 1024 ** 2)).toBe('1.4 MB');
    expect(formatSize(5 * 1024 ** 3)).toBe('5.0 GB');
    expect(formatSize(300 * 1024 ** 2)).toBe('300 MB');
    expect(formatSize(2 * 1024 ** 4)).toBe('2.0 TB');
  });

  it('checks folder names with the contract rule (SPEC §5, issue 9)', () => {
    expect(folderNameProblem('   ')).toEqual({ kind: 'blank' });
    expect(folderNameProblem('a$b|c')).toEqual({ kind: 'illegalCharacter', char: '$' });
    expect(folderNameProblem('x'.repeat(51))).toEqual({ kind: 'tooLong', max: 50 });
    expect(folderNameProblem('..')).toEqual({ kind: 'dotName' });
    expect(folderNameProblem('C:')).toEqual({ kind: 'driveName' });
    expect(folderNameProblem('a\\b')).toEqual({ kind: 'illegalCharacter', char: '\\' });
    expect(folderNameProblem('a\u0000')).toEqual({ kind: 'illegalCharacter', char: 'U+0000' });
    expect(folderNameProblem('Spring.')).toEqual({ kind: 'edgeDot' });
    expect(folderNameProblem('CON.txt')).toEqual({ kind: 'reservedName', name: 'CON' });
    expect(folderNameProblem('春季 2027')).toBeNull();
    expect(fileNameProblem('x'.repeat(255))).toBeNull();
    expect(fileNameProblem('aux')).toEqual({ kind: 'reservedName', name: 'aux' });
  });

  it('says what is wrong in the interface language', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: 'en',
      resources: { en: { translation: en } },
      interpolation: { escapeValue: false },
    });
    const t = (key: string, values?: Record<string, string | number>) => i18n.t(key, values ?? {}) as string;
    expect(nameProblemText(t, { kind: 'dotName' })).toBe('Names cannot be . or ..');
    expect(nameProblemText(t, { kind: 'reservedName', name: 'CON' })).toBe(
      'CON is a name Windows reserves and cannot be used',
    );
    expect(nameProblemText(t, { kind: 'tooLong', max: 50 })).toBe('Names have at most 50 characters');
    expect(nameProblemText(t, { kind: 'illegalCharacter', char: 'U+0000' })).toBe(
      'Names cannot contain the character U+0000',
    );
  });
});
