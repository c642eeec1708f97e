import { type APIRequestContext, expect } from '@playwright/test';

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
