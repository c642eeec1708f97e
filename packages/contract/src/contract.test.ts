import { describe, expect, it } from 'vitest';
import {
  classifyIdentifier,
  ERROR_CODES,
  ERROR_MESSAGES,
  firstIllegalCharacter,
  isStrongPassword,
  itemTypeOfFormat,
  LANGUAGES,
  parseLanguage,
  splitFileName,
} from './index';

describe('contract rules shared by server and browser', () => {
  it('tells a phone number from an e-mail address (SPEC §5)', () => {
    expect(classifyIdentifier('13800138000')).toBe('mobile');
    expect(classifyIdentifier(' buyer@brand.com ')).toBe('email');
    expect(classifyIdentifier('1380013800')).toBeNull();
    expect(classifyIdentifier('admin')).toBeNull();
  });

  it('accepts passwords of 6-16 characters with a letter, a digit and a special character', () => {
    expect(isStrongPassword('Ab1#xy')).toBe(true);
    expect(isStrongPassword('Abcdef1#Abcdef1#')).toBe(true);
    expect(isStrongPassword('Abcdef1#Abcdef1#x')).toBe(false);
    expect(isStrongPassword('abcdef')).toBe(false);
    expect(isStrongPassword('abc123')).toBe(false);
    expect(isStrongPassword('Ab1# xy')).toBe(false);
  });

  it('names the first illegal character of a name', () => {
    expect(firstIllegalCharacter('a|b$c')).toBe('|');
    expect(firstIllegalCharacter('SHOE-01 侧面')).toBeNull();
  });

  it('splits file names into base name and lower-case format, and groups formats', () => {
    expect(splitFileName('SHOE123-01.side.JPG')).toEqual({ baseName: 'SHOE123-01.side', format: 'jpg' });
    expect(splitFileName('README')).toEqual({ baseName: 'README', format: '' });
    expect([itemTypeOfFormat('PSD'), itemTypeOfFormat('mp4'), itemTypeOfFormat('docx')]).toEqual([2, 3, 4]);
  });

  it('reads language headers with Chinese as the fallback', () => {
    expect(parseLanguage('en-US')).toBe('en');
    expect(parseLanguage('fr')).toBe('zh');
    expect(parseLanguage(undefined)).toBe('zh');
  });

  it('has every error message in every language', () => {
    for (const lang of LANGUAGES) {
      for (const code of ERROR_CODES) expect(ERROR_MESSAGES[lang][code], `${lang} ${code}`).toBeTruthy();
    }
  });
});
