import { describe, expect, it } from 'vitest';
import { visibleManageTabs } from './tabs';

describe('manage tabs', () => {
  it('shows each built tab only to holders of its code', () => {
    expect(visibleManageTabs([4]).map((tab) => tab.path)).toEqual([
      '/manage/tag',
      '/manage/download-presets',
      '/manage/metadata-mapping',
    ]);
    expect(visibleManageTabs([8]).map((tab) => tab.path)).toEqual(['/manage/import']);
    expect(visibleManageTabs([4, 8]).map((tab) => tab.path)).toEqual([
      '/manage/tag',
      '/manage/download-presets',
      '/manage/metadata-mapping',
      '/manage/import',
    ]);
    expect(visibleManageTabs([2]).map((tab) => tab.path)).toEqual(['/manage/users']);
    expect(visibleManageTabs([3]).map((tab) => tab.path)).toEqual(['/manage/role']);
    expect(visibleManageTabs([2, 3, 4, 8]).map((tab) => tab.key)).toEqual([
      'users',
      'role',
      'tag',
      'download-presets',
      'metadata-mapping',
      'import',
    ]);
    expect(visibleManageTabs([2, 3, 4, 5, 8]).map((tab) => tab.key)).toEqual([
      'users',
      'role',
      'tag',
      'download-presets',
      'metadata-mapping',
      'log',
      'import',
    ]);
    expect(visibleManageTabs([5]).map((tab) => tab.path)).toEqual(['/manage/log']);
    expect(visibleManageTabs([1]).map((tab) => tab.path)).toEqual(['/mail']);
    expect(visibleManageTabs([2, 1]).map((tab) => tab.key)).toEqual(['users', 'mail']);
    expect(visibleManageTabs([6, 7]).map((tab) => tab.path)).toEqual([
      '/manage/data-table',
      '/manage/api',
      '/manage/completeness',
      '/manage/duplicates',
    ]);
    // SPEC §6: the API tab shows for code 7 alone, and only for it.
    expect(visibleManageTabs([7]).map((tab) => tab.path)).toEqual(['/manage/api']);
    expect(visibleManageTabs([1, 2, 3, 4, 5, 6, 8]).map((tab) => tab.key)).not.toContain('api');
    expect(visibleManageTabs([])).toEqual([]);
  });
});
