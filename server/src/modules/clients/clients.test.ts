import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call } from '../../../test/call';
import { givenUser } from '../../../test/factories';
import { ADMIN, createTestApp, signIn, type TestApp } from '../../../test/harness';

describe('desktop client download links', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      CLIENT_DOWNLOAD_MAC_URL: 'https://files.example.com/dam/Archive-2.3.dmg',
      CLIENT_DOWNLOAD_WIN_URL: 'https://files.example.com/dam/Archive-2.3.exe',
    });
  });
  afterAll(() => t.close());

  it('gives any signed-in user both configured links', async () => {
    const user = await givenUser(t.database);
    const token = await signIn(t.app, user.email, user.password);
    expect(await call(t.app, endpoints.clientDownloads, { token })).toEqual({
      mac: 'https://files.example.com/dam/Archive-2.3.dmg',
      windows: 'https://files.example.com/dam/Archive-2.3.exe',
    });
  });

  it('tells a caller without a session to sign in', async () => {
    const refused = await attempt(t.app, endpoints.clientDownloads);
    expect(refused.errorCode).toBe('SE_501');
  });

  it('offers no link that is not configured', async () => {
    // A second server on the same database, configured with the Windows link only.
    const windowsOnly = await createTestApp(
      { CLIENT_DOWNLOAD_WIN_URL: 'https://files.example.com/dam/setup.exe' },
      { database: t.database, keepDatabase: true },
    );
    try {
      const token = await signIn(windowsOnly.app, ADMIN.email, ADMIN.password);
      expect(await call(windowsOnly.app, endpoints.clientDownloads, { token })).toEqual({
        mac: null,
        windows: 'https://files.example.com/dam/setup.exe',
      });
    } finally {
      await windowsOnly.close();
    }
  });
});
