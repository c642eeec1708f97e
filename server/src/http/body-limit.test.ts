import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt } from '../../test/call';
import { signInAdmin } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { byteSize } from './error-handler';

describe('a body over the size limit', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await signInAdmin(t);
  });
  afterAll(() => t.close());

  it('is answered SE_413 naming the limit, not as a malformed body', async () => {
    // A template whose one text is 1 MiB: past the 1 MiB of a JSON body once wrapped.
    const body = { name: 'big', spec: { blocks: [{ type: 'text', text: 'x'.repeat(1024 * 1024) }] } };
    for (const [lang, message] of [
      ['zh', '请求内容过大，最多 1 MiB'],
      ['en', 'The request is too large (at most 1 MiB)'],
    ] as const) {
      const refused = await attempt(t.app, endpoints.saveTemplate, { token, lang, body });
      expect(refused).toMatchObject({ status: 413, errorCode: 'SE_413', errorDesc: message });
    }
  });

  it('reads sizes in binary units', () => {
    expect(byteSize(1024 * 1024)).toBe('1 MiB');
    expect(byteSize(512 * 1024)).toBe('512 KiB');
    expect(byteSize(1.5 * 1024 * 1024)).toBe('1.5 MiB');
    expect(byteSize(900)).toBe('900 B');
  });
});
