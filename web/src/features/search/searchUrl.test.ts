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

  it('carries a colour and its tolerance beside the search object, and a colour alone', () => {
    const content = {
      fileType: 0 as const,
      query: '',
      rankStatus: '1',
      searchType: 1 as const,
      artNumList: [],
      nameList: [],
      colour: '#CC0000',
      colourTolerance: 'loose' as const,
    };
    const params = new URL(searchUrl(content), 'http://x').searchParams;
    expect(JSON.parse(params.get('search') ?? '')).not.toHaveProperty('colour');
    expect(params.get('colour')).toBe('#cc0000');
    expect(readSearch(params)).toEqual({ ...content, colour: '#cc0000' });

    params.set('colourTolerance', 'very');
    expect(readSearch(params)).not.toHaveProperty('colourTolerance');
    params.set('colour', 'red');
    expect(readSearch(params)).not.toHaveProperty('colour');
  });

  it('carries a metadata filter beside the search object, one parameter per field, and a filter alone', () => {
    const content = {
      fileType: 0 as const,
      query: '',
      rankStatus: '1',
      searchType: 1 as const,
      artNumList: [],
      nameList: [],
      creator: '张三',
      camera: 'EOS R5',
      keyword: '跑鞋',
      capturedFrom: '2026-05-01',
      capturedTo: '2026-05-31',
    };
    const params = new URL(searchUrl(content), 'http://x').searchParams;
    expect(JSON.parse(params.get('search') ?? '')).not.toHaveProperty('creator');
    expect(params.get('creator')).toBe('张三');
    expect(params.get('capturedTo')).toBe('2026-05-31');
    expect(params.has('copyright')).toBe(false);
    expect(readSearch(params)).toEqual(content);

    // Blank fields and dates not written as YYYY-MM-DD are no filter.
    params.set('copyright', '   ');
    params.set('capturedFrom', '1 May');
    const read = readSearch(params);
    expect(read).not.toHaveProperty('copyright');
    expect(read).not.toHaveProperty('capturedFrom');
    expect(read).toMatchObject({ creator: '张三', capturedTo: '2026-05-31' });
  });

  it('summarises a batch as its first 3 values and a count', () => {
    expect(batchSummary(['a', 'b', 'c', 'd', 'e'])).toEqual({ shown: ['a', 'b', 'c'], more: 2 });
    expect(batchSummary(['a'])).toEqual({ shown: ['a'], more: 0 });
  });
});
