import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from './en';
import zh from './zh';

/** Issue 39 item 13: counts read as English, not "item(s)". */
describe('counted sentences', () => {
  const instance = (lng: 'en' | 'zh') => {
    const i18n = i18next.createInstance();
    void i18n.init({
      lng,
      fallbackLng: 'zh',
      resources: { en: { translation: en }, zh: { translation: zh } },
    });
    return i18n;
  };

  it('uses the singular for one and the plural for more in English', () => {
    const { t } = instance('en');
    expect(t('files.confirmDeleteTitle', { count: 1 })).toBe('Delete 1 item?');
    expect(t('files.confirmDeleteTitle', { count: 3 })).toBe('Delete 3 items?');
    expect(t('files.confirmRestore', { count: 1 })).toBe('Restore 1 item?');
    expect(t('files.confirmPurge', { count: 2 })).toBe('Delete 2 items permanently? This cannot be undone.');
    expect(t('upload.confirmCancel', { count: 1 })).toMatch(/^Cancel 1 upload\?/);
    expect(t('upload.unknownArtNumSummary', { count: 1 })).toMatch(/: 1 file$/);
    expect(t('upload.resumed', { count: 4 })).toMatch(/: 4 files$/);
    // A batch search's groups and what matched nothing (seen as "1 files", "1 values" in session 37).
    expect(t('search.groupCount', { count: 1 })).toBe('1 file');
    expect(t('search.groupCount', { count: 2 })).toBe('2 files');
    expect(t('search.unmatched', { count: 1 })).toBe('1 value matched no file');
    expect(t('search.unmatched', { count: 3 })).toBe('3 values matched no file');
  });

  it('says no "(s)" anywhere in English', () => {
    const flat = JSON.stringify(en);
    expect(flat.match(/[a-z]\(s\)/g) ?? []).toEqual([]);
  });

  it('keeps the one Chinese form', () => {
    const { t } = instance('zh');
    expect(t('files.confirmDeleteTitle', { count: 1 })).toBe('删除 1 项？');
    expect(t('files.confirmDeleteTitle', { count: 5 })).toBe('删除 5 项？');
    expect(t('search.groupCount', { count: 1 })).toBe('1 个文件');
    expect(t('log.total', { count: 12 })).toBe('共 12 条');
  });
});
