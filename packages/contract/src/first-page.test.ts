import { describe, expect, it } from 'vitest';
import { firstPageCalls, urlWithQuery } from './first-page';

describe('the calls a page makes first', () => {
  it('are the signed-in user everywhere in the layout, and a folder page’s first page of items', () => {
    expect(firstPageCalls('/')).toEqual([{ method: 'POST', url: '/security-api/user-info' }]);
    expect(firstPageCalls('/manage/users')).toEqual([{ method: 'POST', url: '/security-api/user-info' }]);
    expect(firstPageCalls('/allfiles/all')).toEqual([
      { method: 'POST', url: '/security-api/user-info' },
      {
        method: 'GET',
        url: '/ske-api/v1_0/file/all-file-v2?folderDataId=all&pageNo=1&pageSize=60&rankStatus=0',
      },
    ]);
    // Paths without regard to case, as the router matches them.
    expect(firstPageCalls('/AllFiles/7')).toHaveLength(2);
    expect(firstPageCalls('/Login')).toEqual([]);
    // The folder id as the router decodes it, written again as the browser's query does.
    expect(firstPageCalls('/allfiles/a%20b')[1]?.url).toContain('folderDataId=a+b&');
  });

  it('are none on the pages shown without a session, and no listing for an address no folder page has', () => {
    for (const page of ['/login', '/login/reset-password', '/oauth', '/visitfile'])
      expect(firstPageCalls(page)).toEqual([]);
    expect(firstPageCalls('/allfiles/1/more')).toHaveLength(1);
    expect(firstPageCalls('/allfiles/%E0%A4%A')).toHaveLength(1);
  });

  it('write a query as the browser does: lists repeated, empty values left out', () => {
    expect(urlWithQuery('/p', { a: [1, 2], b: undefined, c: null, d: 'x y&z' })).toBe('/p?a=1&a=2&d=x+y%26z');
    expect(urlWithQuery('/p')).toBe('/p');
  });
});
