import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenFiles, signInAdmin } from '../../../../test/factories';
import { makeJpeg } from '../../../../test/fixtures';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { createTestApiAccess } from '../../../../test/open-client';
import { ManualClock } from '../../../lib/clock';

const EXAMPLE_SCRIPT = path.resolve(import.meta.dirname, '../../../../../scripts/open-api-example.mjs');
const run = promisify(execFile);

/** The README's example client, run as a user would run it, against the app over real HTTP. */
describe('scripts/open-api-example.mjs', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    // The script signs with the system's time.
    t = await createTestApp({}, { clock: new ManualClock(new Date()) });
    baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await t.close();
  });

  it("prints a download link of the article's JPG at 800 px as its last line", async () => {
    const token = await signInAdmin(t);
    await givenFiles(t, token, [
      { fileName: 'AB1234-001.jpg', bytes: await makeJpeg(1600, 1200), artNum: 'AB1234-001' },
    ]);
    const key = await createTestApiAccess(t, { calls: ['assets.byArtNums', 'assets.downloadUrl'] });
    const { stdout } = await run(process.execPath, [EXAMPLE_SCRIPT, 'AB1234-001'], {
      env: { ...process.env, OPEN_API_URL: baseUrl, DAM_KEY_ID: key.keyId, DAM_SECRET: key.secret },
    });
    const url = stdout.trim().split('\n').at(-1) as string;
    expect(url.startsWith(baseUrl)).toBe(true);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const image = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(image).toMatchObject({ format: 'jpeg', width: 800, height: 600 });
  });

  it('exits 1 naming the error when the call is refused', async () => {
    const key = await createTestApiAccess(t, { calls: ['tags.list'] });
    const failed = await run(process.execPath, [EXAMPLE_SCRIPT, 'AB1234-001'], {
      env: { ...process.env, OPEN_API_URL: baseUrl, DAM_KEY_ID: key.keyId, DAM_SECRET: key.secret },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain('SEOA_04');
  });
});
