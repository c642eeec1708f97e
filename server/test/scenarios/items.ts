import { endpoints } from '@dam/contract';
import { AccountsRepository } from '../../src/modules/accounts/repository';
import { resultOf } from '../call';
import { givenUser } from '../factories';
import { ADMIN, createTestApp, get, post, signIn, type TestApp } from '../harness';

/**
 * The app of the folder and listing tests: departments Design (with Shoes below it) and Sales, a
 * designer and a shoe designer who edit within their department, a salesperson who only views, and
 * calls that make and list folders.
 */

export type ItemsWorld = Awaited<ReturnType<typeof createItemsWorld>>;

export async function createItemsWorld() {
  const t: TestApp = await createTestApp({ LOGIN_RATE_LIMIT: '1000', SESSION_IDLE_HOURS: '720' });
  const accounts = new AccountsRepository(t.database.db);
  const design = await accounts.departments.createDepartment({ name: 'Design', parentId: 1 });
  const shoes = await accounts.departments.createDepartment({ name: 'Shoes', parentId: design.id });
  const salesDept = await accounts.departments.createDepartment({ name: 'Sales', parentId: 1 });
  const designDeptId = design.id;
  const deptEditor = { view: 'dept', upload: 'dept', download: 'dept', share: 'none' } as const;
  const d = await givenUser(t.database, { deptId: design.id, scopes: deptEditor });
  const s = await givenUser(t.database, { deptId: shoes.id, scopes: deptEditor });
  const sa = await givenUser(t.database, { deptId: salesDept.id, scopes: { view: 'dept' } });
  const admin = await signIn(t.app, ADMIN.email, ADMIN.password);
  const designer = await signIn(t.app, d.email, d.password);
  const shoeDesigner = await signIn(t.app, s.email, s.password);
  const sales = await signIn(t.app, sa.email, sa.password);

  const api = (path: string) => `/ske-api/v1_0/${path}`;
  const createFolder = async (token: string, body: Record<string, unknown>) => {
    const response = await post(t.app, api('file/creat-folder'), body, { token, lang: 'en' });
    return response;
  };
  const folder = async (token: string, name: string, parentId?: number, visibility?: string) => {
    const { status, body } = await createFolder(token, { folderName: name, parentId, visibility });
    if (status !== 200) throw new Error(`create ${name}: ${JSON.stringify(body)}`);
    t.clock.advance(1000);
    return resultOf(endpoints.createFolder, body).folderId;
  };
  const list = async (token: string, folderDataId: number | 'all', query = '') => {
    const { status, body } = await get(t.app, api(`file/all-file-v2?folderDataId=${folderDataId}${query}`), {
      token,
      lang: 'en',
    });
    return { status, body, listing: resultOf(endpoints.folderListing, body) };
  };
  const names = async (token: string, folderDataId: number | 'all') =>
    (await list(token, folderDataId)).listing.list.map((i) => i.name);

  return { t, admin, designer, shoeDesigner, sales, designDeptId, api, createFolder, folder, list, names };
}
