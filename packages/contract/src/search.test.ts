import { describe, expect, it } from 'vitest';
import { cleanSingleQuery, parseSearchContent, searchRequestSchema, splitBatchValues } from './search';

describe('search input rules (SPEC §5)', () => {
  it('strips the dollar sign from the single search', () => {
    expect(cleanSingleQuery(' $SHOE$123 ')).toBe('SHOE123');
    expect(searchRequestSchema.parse({ searchType: 1, query: 'a$b' }).query).toBe('ab');
  });

  it('splits pasted batch values on spaces and line breaks, dropping repeats whatever their case', () => {
    expect(splitBatchValues('SHOE1 shoe2\n\nSHOE1\tboot3  shoe2 ')).toEqual(['SHOE1', 'shoe2', 'boot3']);
    expect(splitBatchValues('   ')).toEqual([]);
  });
});

describe('parseSearchContent', () => {
  it('reads what the search bar writes, and refuses what is not a search', () => {
    const content = {
      fileType: 2,
      query: '',
      rankStatus: '1',
      searchType: 3,
      artNumList: ['A1', ''],
      nameList: [],
    };
    expect(parseSearchContent(JSON.stringify(content))).toEqual({ ...content, artNumList: ['A1'] });
    expect(parseSearchContent('{"searchType":9}')).toBeNull();
    expect(parseSearchContent('not json')).toBeNull();
    expect(parseSearchContent(null)).toBeNull();
    // An unknown scope falls back to all rather than failing the page.
    expect(parseSearchContent('{"searchType":1,"query":"x","fileType":42}')?.fileType).toBe(0);
  });
});
