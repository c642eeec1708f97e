import {
  endpoints,
  FINGERPRINT_ALGO,
  FingerprintStatusCode,
  hashToSigned,
  OperationCode,
} from '@dam/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, call, fetchBytes } from '../../../test/call';
import {
  EVERY_SCOPE,
  givenDepartment,
  givenFile,
  givenFolder,
  givenSignedInUser,
  uniqueName,
} from '../../../test/factories';
import { flip, randomHash } from '../../../test/fingerprints';
import { createTestApp, type TestApp } from '../../../test/harness';
import type { MediaUrls } from '../media/urls';
import type { RateLimiter } from '../ratelimit/limiter';
import { SimilarRepository } from './repository';
import { SimilarService } from './service';

/**
 * The near-duplicate report (issue 17, function code 6) through the API, on PGlite and
 * PostgreSQL: clusters from the stored pairs, what the caller may see only, the kept member and
 * the bytes the others take, department and folder scopes, the export.
 */

const RED = [{ l: 535, a: 180, b: 94, w: 1000 }];

describe('the near-duplicate report', () => {
  let t: TestApp;
  /** Administers Design (code 6), sees everything in it. */
  let analyst: { id: number; token: string };
  let designer: { id: number; token: string };
  let salesman: { id: number; token: string };
  let design: { id: number; name: string };
  let sales: { id: number };

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT: '1000' });
    design = await givenDepartment(t);
    sales = await givenDepartment(t);
    const deptScopes = { view: 'dept', upload: 'dept', download: 'dept' } as const;
    analyst = await givenSignedInUser(t, { deptId: design.id, scopes: deptScopes, functionCodes: [6] });
    designer = await givenSignedInUser(t, { deptId: design.id, scopes: deptScopes });
    salesman = await givenSignedInUser(t, { deptId: sales.id, scopes: EVERY_SCOPE });
  });
  afterAll(() => t.close());

  /** A file of `token`'s, `size` bytes, `width`×`height`, with that hash; its item and upload. */
  async function picture(token: string, hash: string, size: number, width: number, folderId?: number) {
    const file = await givenFile(t, token, {
      fileName: `${uniqueName('DUP')}.jpg`,
      bytes: Buffer.alloc(size, 7),
      ...(folderId === undefined ? {} : { folderId }),
    });
    const db = t.database.db;
    const upload = await db
      .selectFrom('uploads')
      .select('id')
      .where('item_id', '=', file.id)
      .executeTakeFirstOrThrow();
    await db.updateTable('uploads').set({ width, height: width }).where('id', '=', upload.id).execute();
    await db
      .insertInto('media_fingerprints')
      .values({
        upload_id: upload.id,
        status: FingerprintStatusCode.ready,
        reason: null,
        hash: hashToSigned(hash),
        algo: FINGERPRINT_ALGO,
      })
      .execute();
    await db
      .insertInto('media_colours')
      .values(RED.map((c, slot) => ({ upload_id: upload.id, slot, l: c.l, a: c.a, b: c.b, weight: c.w })))
      .execute();
    // As the media job does once a fingerprint is stored.
    await new SimilarService({
      repo: new SimilarRepository(db),
      mediaUrls: {} as MediaUrls,
      limiter: {} as RateLimiter,
      maxDistance: 10,
      maxColourDistance: 0.08,
    }).recordPairs(upload.id);
    return { itemId: file.id, uploadId: upload.id };
  }

  const report = (token: string, body: Record<string, unknown> = {}) =>
    attempt(t.app, endpoints.duplicateReport, { token, body, query: { pageSize: 50 } });

  it('clusters copies the caller may see, keeps the largest, and counts what the others take', async () => {
    const hash = randomHash();
    // A chain: the big original, a half-size copy 2 bits off, and a copy of the copy 4 bits off.
    const original = await picture(designer.token, hash, 3000, 2000);
    const copy = await picture(designer.token, flip(hash, [1, 17]), 1200, 1000);
    const copyOfCopy = await picture(analyst.token, flip(hash, [1, 17, 33, 49]), 800, 500);
    // In Sales: outside the analyst's department, never shown, not even in totals.
    const salesCopy = await picture(salesman.token, hash, 5000, 800);
    // Unrelated, and one too far (12 bits).
    await picture(designer.token, randomHash(), 900, 900);
    await picture(designer.token, flip(hash, [0, 2, 4, 16, 18, 20, 32, 34, 36, 48, 50, 52]), 700, 700);

    const answer = await report(analyst.token);
    expect(answer.errorCode).toBeNull();
    const clusters = answer.result!.list.filter((cluster) =>
      cluster.members.some((member) => member.id === original.itemId),
    );
    expect(clusters).toHaveLength(1);
    const [cluster] = clusters;
    expect(cluster!.members.map((member) => member.id)).toEqual([
      original.itemId,
      copy.itemId,
      copyOfCopy.itemId,
    ]);
    expect(cluster!.members.map((member) => member.keep)).toEqual([true, false, false]);
    expect(cluster!.members[1]!.distance).toBe(2);
    expect(cluster!.bytesFreeable).toBe(1200 + 800);
    expect(cluster!.members[0]!.deptName).not.toBe('');
    const everyId = answer.result!.list.flatMap((c) => c.members.map((m) => m.id));
    expect(everyId).not.toContain(salesCopy.itemId);

    // An administrator of everything sees the copy in Sales join the cluster; Sales alone has no pair.
    const admin = await givenSignedInUser(t, { deptId: sales.id, scopes: EVERY_SCOPE, functionCodes: [6] });
    const everything = await report(admin.token);
    const withSales = everything.result!.list.find((c) => c.members.some((m) => m.id === salesCopy.itemId));
    expect(withSales?.members.map((m) => m.id)).toContain(original.itemId);
    const salesOnly = await report(admin.token, { deptId: sales.id });
    expect(salesOnly.result!.list.flatMap((c) => c.members.map((m) => m.id))).not.toContain(salesCopy.itemId);

    // A tighter threshold splits the chain: 4 bits off the original is out at 3.
    const tight = await report(analyst.token, { maxDistance: 3 });
    const tightCluster = tight.result!.list.find((c) => c.members.some((m) => m.id === original.itemId));
    expect(tightCluster!.members.map((m) => m.id)).toEqual([original.itemId, copy.itemId, copyOfCopy.itemId]);
    const tighter = await report(analyst.token, { maxDistance: 1 });
    expect(tighter.result!.list.some((c) => c.members.some((m) => m.id === original.itemId))).toBe(false);
  });

  it('leaves files in the recycle bin out and keeps a folder report to the folder', async () => {
    const hash = randomHash();
    const folder = await givenFolder(t, designer.token);
    const inside = await picture(designer.token, hash, 2000, 1500, folder.id);
    const alsoInside = await picture(designer.token, flip(hash, [7]), 1000, 800, folder.id);
    const outside = await picture(designer.token, hash, 9000, 3000);
    const binned = await picture(designer.token, flip(hash, [3]), 500, 500, folder.id);
    await call(t.app, endpoints.deleteItems, { token: designer.token, body: { idList: [binned.itemId] } });
    const scoped = await report(analyst.token, { folderDataId: folder.id });
    // Only the folder's own files: the bigger copy elsewhere neither joins nor is kept.
    expect(scoped.result!.list.map((c) => c.members.map((m) => m.id))).toEqual([
      [inside.itemId, alsoInside.itemId],
    ]);
    expect(scoped.result!.totals).toEqual({ clusters: 1, items: 2, bytesFreeable: 1000 });
    const everywhere = await report(analyst.token);
    const cluster = everywhere.result!.list.find((c) => c.members.some((m) => m.id === inside.itemId));
    expect(cluster!.members.map((m) => m.id)).toEqual([outside.itemId, inside.itemId, alsoInside.itemId]);
    expect(everywhere.result!.list.flatMap((c) => c.members.map((m) => m.id))).not.toContain(binned.itemId);
  });

  it('is for holders of code 6, within their own departments', async () => {
    expect((await report(designer.token)).errorCode).toBe('SE_502');
    // Code 6 but no department to administer: nothing to report on.
    const nowhere = await givenSignedInUser(t, {
      deptId: null,
      scopes: { view: 'dept', upload: 'dept', download: 'dept' },
      functionCodes: [6],
    });
    expect((await report(nowhere.token)).errorCode).toBe('SE_502');
    const refused = await report(analyst.token, { deptId: sales.id });
    expect(refused.errorCode).toBe('SE_400');
    expect((await report(analyst.token, { maxDistance: 12 })).errorCode).toBe('SE_400');
  });

  it('exports the clusters as a workbook and logs it', async () => {
    const hash = randomHash();
    const a = await picture(designer.token, hash, 1500, 1500);
    await picture(designer.token, flip(hash, [5]), 700, 700);
    const response = await fetchBytes(t.app, endpoints.exportDuplicateReport, {
      token: analyst.token,
      body: {},
      lang: 'en',
    });
    expect(response.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Near-duplicates')!;
    expect(sheet.getRow(1).getCell(3).value).toBe('Name');
    const names: string[] = [];
    sheet.eachRow((row, index) => {
      if (index > 1) names.push(String(row.getCell(3).value));
    });
    const name = (
      await t.database.db
        .selectFrom('items')
        .select('name')
        .where('id', '=', a.itemId)
        .executeTakeFirstOrThrow()
    ).name;
    expect(names).toContain(name);
    // The summary says what it covers: without a filter, the department the analyst administers.
    const summary = new Map<string, unknown>();
    workbook.getWorksheet('Summary')!.eachRow((row) => {
      summary.set(String(row.getCell(1).value), row.getCell(2).value);
    });
    expect(summary.get('Department')).toBe(design.name);
    expect(summary.get('Folder')).toBe('All folders');

    // Narrowed to a department and a folder: both named in the summary.
    const folder = await givenFolder(t, designer.token);
    const narrowed = await fetchBytes(t.app, endpoints.exportDuplicateReport, {
      token: analyst.token,
      body: { deptId: design.id, folderDataId: folder.id },
      lang: 'zh',
    });
    const narrowBook = new ExcelJS.Workbook();
    await narrowBook.xlsx.load(narrowed.rawPayload as unknown as ArrayBuffer);
    const narrowSummary = new Map<string, unknown>();
    narrowBook.getWorksheet('汇总')!.eachRow((row) => {
      narrowSummary.set(String(row.getCell(1).value), row.getCell(2).value);
    });
    expect(narrowSummary.get('部门')).toBe(design.name);
    expect(narrowSummary.get('文件夹')).toBe(`/${folder.name}`);
    const logged = await t.database.db
      .selectFrom('operation_logs')
      .select('operator_code')
      .where('operator_id', '=', analyst.id)
      .where('operator_code', '=', OperationCode.exportDuplicates)
      .execute();
    expect(logged).toHaveLength(2);
  });
});
