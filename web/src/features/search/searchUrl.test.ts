import { describe, expect, it } from 'vitest';
import { batchSummary, readSearch, searchUrl } from './searchUrl';

describe('search URL', () => {
  it('opens / with the JSON search object and global=true, and reads it back', () => {
    const content = {
      fileType: 0 as const,
      query: 'SHOE 1',
      rankStatus: '1',
      searchType: 1 as const,
      artNumList: [],
      nameList: [],
    };
    const url = searchUrl(content);
    expect(url.startsWith('/?')).toBe(true);
    const params = new URL(url, 'http://x').searchParams;
    expect(params.get('global')).toBe('true');
    expect(readSearch(params)).toEqual(content);
    params.delete('global');
    expect(readSearch(params)).toBeNull();
  });

  it('summarises a batch as its first 3 values and a count', () => {
    expect(batchSummary(['a', 'b', 'c', 'd', 'e'])).toEqual({ shown: ['a', 'b', 'c'], more: 2 });
    expect(batchSummary(['a'])).toEqual({ shown: ['a'], more: 0 });
  });
});
