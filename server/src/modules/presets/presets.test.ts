import { endpoints } from '@dam/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../../../test/call';
import { givenUser } from '../../../test/factories';
import { ADMIN, createTestApp, get, post, signIn, type TestApp } from '../../../test/harness';

describe('download presets', () => {
  let t: TestApp;
  let admin: string;
  let tagManager: string;
  let plainUser: string;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    admin = await signIn(t.app, ADMIN.email, ADMIN.password);
    const manager = await givenUser(t.database, { functionCodes: [4] });
    tagManager = await signIn(t.app, manager.email, manager.password);
    const user = await givenUser(t.database, {
      functionCodes: [2, 3, 5],
      scopes: { view: 'all', download: 'all' },
    });
    plainUser = await signIn(t.app, user.email, user.password);
  });
  afterAll(async () => {
    await t.close();
  });

  const save = (body: Record<string, unknown>, token = tagManager, lang = 'en') =>
    post(t.app, '/ske-api/v1_0/download-preset/save', body, { token, lang });
  const tmall = {
    name: ' Tmall main image ',
    format: 'jpg',
    longSidePx: 800,
    background: '#FFFFFF',
    fileNameTemplate: '{artNum}_{index}.jpg',
  };

  it('creates, lists, updates and deletes a preset for holders of code 4', async () => {
    const created = await save(tmall);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const preset = resultOf(endpoints.saveDownloadPreset, created.body);
    expect(preset).toMatchObject({ name: 'Tmall main image', background: '#ffffff', longSidePx: 800 });

    // Every signed-in user may list them: the download dialog offers them.
    const listed = await get(t.app, '/ske-api/v1_0/download-preset/list', { token: plainUser });
    expect(listed.status).toBe(200);
    expect(resultOf(endpoints.downloadPresets, listed.body).map((p) => p.id)).toContain(preset.id);

    const updated = await save({
      ...tmall,
      id: preset.id,
      longSidePx: null,
      format: 'png',
      background: null,
    });
    expect(updated.body.result).toMatchObject({
      id: preset.id,
      format: 'png',
      longSidePx: null,
      background: null,
    });

    const deleted = await post(
      t.app,
      '/ske-api/v1_0/download-preset/delete',
      { id: preset.id },
      { token: admin },
    );
    expect(deleted.status).toBe(200);
    const after = await get(t.app, '/ske-api/v1_0/download-preset/list', { token: admin });
    expect(resultOf(endpoints.downloadPresets, after.body).map((p) => p.id)).not.toContain(preset.id);
  });

  it('refuses changes without code 4 (SE_502) and changes nothing', async () => {
    const refused = await save({ ...tmall, name: 'Sneaky' }, plainUser);
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe('SE_502');
    const existing = await save({ ...tmall, name: 'JD detail' });
    const id = resultOf(endpoints.saveDownloadPreset, existing.body).id;
    const del = await post(t.app, '/ske-api/v1_0/download-preset/delete', { id }, { token: plainUser });
    expect(del.status).toBe(403);
    const list = await get(t.app, '/ske-api/v1_0/download-preset/list', { token: plainUser });
    const names = resultOf(endpoints.downloadPresets, list.body).map((p) => p.name);
    expect(names).toContain('JD detail');
    expect(names).not.toContain('Sneaky');
    const anonymous = await get(t.app, '/ske-api/v1_0/download-preset/list');
    expect(anonymous.status).toBe(401);
  });

  it('explains a bad template in the caller’s language', async () => {
    const unknown = await save({ ...tmall, name: 'x1', fileNameTemplate: '{sku}_{index}.jpg' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errorCode).toBe('SE_400');
    expect(unknown.body.errorDesc).toBe(
      'Invalid request: fileNameTemplate: has an unknown placeholder {sku}; use {name} {artNum} {index} {format} {width} {height}',
    );
    const zh = await save({ ...tmall, name: 'x2', fileNameTemplate: '{artNum}_{idx}.jpg' }, tagManager, 'zh');
    expect(zh.body.errorDesc).toContain('未知的占位符 {idx}');
    const illegal = await save({ ...tmall, name: 'x3', fileNameTemplate: '{artNum}:{index}.jpg' });
    expect(illegal.body.errorDesc).toBe(
      'Invalid request: fileNameTemplate: must not contain the character :',
    );
    const unclosed = await save({ ...tmall, name: 'x4', fileNameTemplate: '{artNum_{index}.jpg' });
    expect(unclosed.body.errorDesc).toContain('unknown placeholder {artNum_{index}');
    const fixed = await save({ ...tmall, name: 'x5', fileNameTemplate: 'main.jpg' });
    expect(fixed.body.errorDesc).toContain('needs at least one placeholder');
  });

  it('refuses other bad input, a taken name and unknown ids with catalogue codes', async () => {
    for (const [body, field] of [
      [{ ...tmall, name: 'a', longSidePx: 20_001 }, 'longSidePx'],
      [{ ...tmall, name: 'b', longSidePx: 0 }, 'longSidePx'],
      [{ ...tmall, name: 'c', longSidePx: 10.5 }, 'longSidePx'],
      [{ ...tmall, name: 'd', background: 'white' }, 'background'],
      [{ ...tmall, name: 'e', format: 'gif' }, 'format'],
      [{ ...tmall, name: '   ' }, 'name'],
      [{ ...tmall, name: 'x'.repeat(51) }, 'name'],
    ] as const) {
      const response = await save(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.errorDesc).toContain(field);
    }
    await save({ ...tmall, name: 'Taken' });
    const taken = await save({ ...tmall, name: 'TAKEN' });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      errorCode: 'SEDL_03',
      errorDesc: 'A download preset with this name already exists',
    });
    const missing = await save({ ...tmall, id: 999_999, name: 'Nope' });
    expect(missing.status).toBe(404);
    expect(missing.body.errorCode).toBe('SEDL_01');
    const gone = await post(t.app, '/ske-api/v1_0/download-preset/delete', { id: 999_999 }, { token: admin });
    expect(gone.body.errorCode).toBe('SEDL_01');
  });
});
