// @vitest-environment jsdom

import { FIRST_ANSWERS_ELEMENT_ID } from '@dam/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToken, getToken, setToken } from '../auth/token';
import {
  ApiError,
  apiRequest,
  askEarly,
  call,
  endpointUrl,
  retryAfterMsOf,
  setSessionExpiredHandler,
} from './client';
import { endpoints } from './endpoints';
import { notifyError, setNotifier } from './notify';

function respond(status: number, body: unknown) {
  return vi.fn(
    async () =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
}

/** A fetch that only ends when its request is aborted, as a hung server would. */
function neverAnswers(_url: string, init: RequestInit): Promise<Response> {
  return new Promise((_resolve, reject) =>
    init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
  );
}

describe('API client', () => {
  const shown: string[] = [];
  beforeEach(() => {
    shown.length = 0;
    setNotifier(
      (text) => shown.push(text),
      () => {},
    );
    clearToken();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('sends the token and language headers and unwraps the envelope', async () => {
    setToken('tok-123', false);
    const fetchMock = respond(200, { success: true, result: { n: 1 }, errorCode: null, errorDesc: null });
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiRequest('POST', '/ske-api/v1_0/x', { body: { a: 1 } })).resolves.toEqual({ n: 1 });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.headers).toMatchObject({ token: 'tok-123', lang: 'zh', 'content-type': 'application/json' });
    expect(init.body).toBe('{"a":1}');
  });

  it('sends a list in the query as the same name repeated, and leaves out empty values', async () => {
    const fetchMock = respond(200, { success: true, result: null, errorCode: null, errorDesc: null });
    vi.stubGlobal('fetch', fetchMock);
    await call(endpoints.folderListing, {
      query: { folderDataId: 'all', tagIdList: [3, 7], minCreatedAt: undefined },
    });
    const [url] = fetchMock.mock.calls[0] as unknown as [string];
    expect(url).toBe('/ske-api/v1_0/file/all-file-v2?folderDataId=all&tagIdList=3&tagIdList=7');
  });

  it('calls an endpoint of the table at its method and path, with its path parameters filled in', async () => {
    const fetchMock = respond(200, { success: true, result: null, errorCode: null, errorDesc: null });
    vi.stubGlobal('fetch', fetchMock);
    await call(endpoints.unlockShare, { params: { code: 'a b' }, body: { password: 'x1' } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/ske-api/v1_0/user/share/random/a%20b');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"password":"x1"}');
    expect(endpointUrl(endpoints.redeemDownloadTicket, { query: { ticket: 't1' } })).toBe(
      '/ske-api/v1_0/file/download?ticket=t1',
    );
  });

  it('carries a 429’s Retry-After in milliseconds, so a caller can wait it out', async () => {
    const refused = (retryAfter: string | null) =>
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({ success: false, result: null, errorCode: 'SE_429', errorDesc: '太频繁' }),
            {
              status: 429,
              headers: {
                'content-type': 'application/json',
                ...(retryAfter === null ? {} : { 'retry-after': retryAfter }),
              },
            },
          ),
      );
    vi.stubGlobal('fetch', refused('17'));
    const failure = await apiRequest('POST', '/x', { silent: true }).catch((e) => e);
    expect(failure).toMatchObject({ code: 'SE_429', status: 429, retryAfterMs: 17_000 });
    vi.stubGlobal('fetch', refused(null));
    const bare = await apiRequest('POST', '/x', { silent: true }).catch((e) => e);
    expect(bare).toMatchObject({ status: 429, retryAfterMs: undefined });
    expect(retryAfterMsOf(new Date(61_000).toUTCString(), 1_000)).toBe(60_000);
    expect(retryAfterMsOf('soon')).toBeUndefined();
    expect(shown).toEqual([]);
  });

  it('throws the server’s localised error and shows it', async () => {
    vi.stubGlobal(
      'fetch',
      respond(403, { success: false, result: null, errorCode: 'SE_502', errorDesc: '没有访问权限' }),
    );
    const failure = await apiRequest('GET', '/ske-api/v1_0/x').catch((e) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ code: 'SE_502', desc: '没有访问权限', status: 403 });
    expect(shown).toEqual(['没有访问权限']);
  });

  it('on SE_501 forgets the token and hands over to the session-expired handler', async () => {
    setToken('stale', true);
    const expired = vi.fn();
    setSessionExpiredHandler(expired);
    vi.stubGlobal(
      'fetch',
      respond(401, { success: false, result: null, errorCode: 'SE_501', errorDesc: 'expired' }),
    );
    await expect(apiRequest('POST', '/security-api/user-info')).rejects.toMatchObject({ code: 'SE_501' });
    expect(getToken()).toBeUndefined();
    expect(expired).toHaveBeenCalledExactlyOnceWith(false);

    // A session opened through single sign-on is told so: its browser goes to the provider's logout.
    setToken('stale-sso', true, 'sso');
    await expect(apiRequest('POST', '/security-api/user-info')).rejects.toMatchObject({ code: 'SE_501' });
    expect(expired).toHaveBeenLastCalledWith(true);
  });

  it('reports a 504 from a proxy as a network time-out', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('Gateway Timeout', { status: 504 })),
    );
    await expect(apiRequest('GET', '/ske-api/v1_0/x')).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(shown[0]).toBe('网络超时，请稍后再试');
  });

  it('gives up after 60 s on the security API', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', vi.fn(neverAnswers));
    const pending = apiRequest('POST', '/security-api/user-info', { silent: true }).catch((e) => e);
    await vi.advanceTimersByTimeAsync(59_999);
    await vi.advanceTimersByTimeAsync(2);
    expect(await pending).toMatchObject({ code: 'TIMEOUT' });
  });

  it('waits 600 s on the main API before giving up', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', vi.fn(neverAnswers));
    let settled = false;
    const pending = apiRequest('GET', '/ske-api/v1_0/x', { silent: true })
      .catch((e) => e)
      .finally(() => {
        settled = true;
      });
    await vi.advanceTimersByTimeAsync(599_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(await pending).toMatchObject({ code: 'TIMEOUT', status: 0 });
  });

  it('shows a repeated server error once within 2 s and again after', async () => {
    vi.useFakeTimers();
    const desc = '系统异常，请稍后再试（去重）';
    vi.stubGlobal(
      'fetch',
      respond(500, { success: false, result: null, errorCode: 'SE_500', errorDesc: desc }),
    );
    await apiRequest('GET', '/ske-api/v1_0/a').catch(() => {});
    await vi.advanceTimersByTimeAsync(1_999);
    await apiRequest('GET', '/ske-api/v1_0/b').catch(() => {});
    expect(shown).toEqual([desc]);
    await vi.advanceTimersByTimeAsync(1);
    await apiRequest('GET', '/ske-api/v1_0/c').catch(() => {});
    expect(shown).toEqual([desc, desc]);
  });

  it('suppresses the same error message within 2 s', () => {
    expect(notifyError('boom', 1_000)).toBe(true);
    expect(notifyError('boom', 2_500)).toBe(false);
    expect(notifyError('other', 2_500)).toBe(true);
    expect(notifyError('boom', 3_001)).toBe(true);
  });

  describe('calls asked for early (the first page, issue 12 goal 4)', () => {
    const envelope = (result: unknown) => ({ success: true, result, errorCode: null, errorDesc: null });

    it('are made at once, with the same method and headers, and the page’s call takes the answer once', async () => {
      setToken('tok-early', false);
      const fetchMock = respond(200, envelope({ userName: 'ada' }));
      vi.stubGlobal('fetch', fetchMock);
      askEarly({ method: 'POST', url: endpointUrl(endpoints.userInfo) });
      expect(fetchMock).toHaveBeenCalledTimes(1);
      const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
      expect(url).toBe('/security-api/user-info');
      expect(init.method).toBe('POST');
      expect(init.headers).toMatchObject({ token: 'tok-early', lang: 'zh' });
      await expect(call(endpoints.userInfo)).resolves.toEqual({ userName: 'ada' });
      expect(fetchMock).toHaveBeenCalledTimes(1);
      // Taken once: the next call asks the server again.
      await call(endpoints.userInfo);
      expect(fetchMock).toHaveBeenCalledTimes(2);
    });

    it('answer only the same call with the same input', async () => {
      const fetchMock = respond(200, envelope({ list: [] }));
      vi.stubGlobal('fetch', fetchMock);
      askEarly({
        method: 'GET',
        url: endpointUrl(endpoints.folderListing, { query: { folderDataId: '1', pageNo: 1 } }),
      });
      await call(endpoints.folderListing, { query: { folderDataId: '2', pageNo: 1 } });
      await call(endpoints.folderListing, { query: { folderDataId: '1', pageNo: 1 } });
      expect(fetchMock.mock.calls.map((args) => (args as unknown as [string])[0])).toEqual([
        '/ske-api/v1_0/file/all-file-v2?folderDataId=1&pageNo=1',
        '/ske-api/v1_0/file/all-file-v2?folderDataId=2&pageNo=1',
      ]);
    });

    it('are dropped, their call ended, when not taken within 30 s or when the session changes', async () => {
      vi.useFakeTimers();
      const ended: string[] = [];
      const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
        init.signal?.addEventListener('abort', () => ended.push(url));
        return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
      });
      vi.stubGlobal('fetch', fetchMock);
      askEarly({
        method: 'GET',
        url: endpointUrl(endpoints.folderListing, { query: { folderDataId: '1' } }),
      });
      await vi.advanceTimersByTimeAsync(29_999);
      expect(ended).toEqual([]);
      await vi.advanceTimersByTimeAsync(2);
      expect(ended).toEqual(['/ske-api/v1_0/file/all-file-v2?folderDataId=1']);

      askEarly({
        method: 'GET',
        url: endpointUrl(endpoints.folderListing, { query: { folderDataId: '2' } }),
      });
      setToken('someone-else', false);
      expect(ended).toHaveLength(2);
      vi.stubGlobal('fetch', respond(200, envelope('fresh')));
      await expect(call(endpoints.folderListing, { query: { folderDataId: '2' } })).resolves.toBe('fresh');
    });

    it('take the answer the server put in the page instead of calling, once, and only for its call', async () => {
      setToken('tok-page', false);
      const listing = endpointUrl(endpoints.folderListing, { query: { folderDataId: '5', pageNo: 1 } });
      const script = document.createElement('script');
      script.type = 'application/json';
      script.id = FIRST_ANSWERS_ELEMENT_ID;
      script.textContent = JSON.stringify({
        [`GET ${listing}`]: envelope({ list: [{ id: 9 }] }),
        'POST /security-api/user-info': envelope({ userName: 'from-page' }),
      });
      document.body.append(script);
      const fetchMock = respond(200, envelope({ list: [] }));
      vi.stubGlobal('fetch', fetchMock);
      askEarly({ method: 'GET', url: listing });
      // Read and gone from the page.
      expect(document.getElementById(FIRST_ANSWERS_ELEMENT_ID)).toBeNull();
      await expect(
        call(endpoints.folderListing, { query: { folderDataId: '5', pageNo: 1 } }),
      ).resolves.toEqual({
        list: [{ id: 9 }],
      });
      expect(fetchMock).not.toHaveBeenCalled();
      // A second early call of the same listing is made: the page's answer was taken once.
      askEarly({ method: 'GET', url: listing });
      await expect(
        call(endpoints.folderListing, { query: { folderDataId: '5', pageNo: 1 } }),
      ).resolves.toEqual({
        list: [],
      });
      expect(fetchMock).toHaveBeenCalledTimes(1);
      // A new session does not take the last one's answers.
      setToken('tok-other', false);
      askEarly({ method: 'POST', url: endpointUrl(endpoints.userInfo) });
      expect(fetchMock).toHaveBeenCalledTimes(2);
    });

    it('give up at the call’s time-out, and the page’s call says so', async () => {
      vi.useFakeTimers();
      vi.stubGlobal('fetch', vi.fn(neverAnswers));
      askEarly({ method: 'POST', url: endpointUrl(endpoints.userInfo) });
      const pending = call(endpoints.userInfo).catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(60_001);
      expect(await pending).toMatchObject({ code: 'TIMEOUT' });
      expect(shown).toEqual(['网络超时，请稍后再试']);
    });
  });
});
