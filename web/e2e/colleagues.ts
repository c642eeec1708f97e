import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { chooseOption, itemCard } from './support';

// People and collections the journeys set up (review, collections, collection sharing).

/** The password colleagues made by `givenColleague` choose at their first sign-in. */
export const COLLEAGUE_PASSWORD = 'Colleague#2026';

/**
 * A colleague in a department of their own (under the organisation) who sees, uploads, downloads
 * and shares their department's files, with `functionCodes`: made through the administration
 * calls with the administrator's `token`, their first password changed as they would at sign-in.
 */
export async function givenColleague(
  request: APIRequestContext,
  token: string,
  options: { stamp: string; label: string; emailPrefix?: string; functionCodes?: number[] },
): Promise<{ email: string; name: string }> {
  const post = async (path: string, data: unknown, as = token) => {
    const answer = await request.post(path, { headers: { token: as }, data });
    const body = await answer.json();
    expect(body.success, `${path}: ${JSON.stringify(body)}`).toBe(true);
    return body.result;
  };
  const { stamp, label } = options;
  const { departments } = await post('/security-api/dept-tree', {});
  const root = departments.find((d: { parentId: number | null }) => d.parentId === null);
  const dept = await post('/security-api/create-dept', { name: `${label}部门${stamp}`, parentId: root.id });
  const role = await post('/security-api/create-role', {
    name: `${label}角色${stamp}`,
    filePermissions: { view: 'dept', upload: 'dept', download: 'dept', share: 'dept' },
    functionCodes: options.functionCodes ?? [],
  });
  const email = `${options.emailPrefix ?? 'colleague'}-${stamp}@example.com`;
  const name = `${label}${stamp}`;
  const user = await post('/security-api/create-user', {
    name,
    email,
    deptId: dept.id,
    roleIdList: [role.id],
  });
  const login = await (
    await request.post('/security-api/login', { data: { userName: email, password: user.password } })
  ).json();
  await post(
    '/security-api/self-reset-pwd',
    { password: user.password, newPassword: COLLEAGUE_PASSWORD, reEnterPassword: COLLEAGUE_PASSWORD },
    login.result.token,
  );
  return { email, name };
}

/** Selects the one file in the folder on screen and adds it to `collection` (made here when `create`). */
export async function addToCollection(
  page: Page,
  file: string,
  collection: string,
  create: boolean,
  add: string,
) {
  await itemCard(page, file).getByRole('checkbox').check();
  await page.getByTestId('selection-more').click();
  await expect(page.getByTestId('selection-collect')).toHaveText(add);
  await page.getByTestId('selection-collect').click();
  const form = page.getByTestId('collection-add-form');
  await expect(form).toBeVisible();
  if (create) await page.getByTestId('collection-add-new').fill(collection);
  else await chooseOption(page, page.getByTestId('collection-add-pick'), collection);
  await page.getByTestId('collection-add-save').click();
  await expect(form).toBeHidden();
}
