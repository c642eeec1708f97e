import { describe, expect, it } from 'vitest';
import { type Department, roleInputSchema, toDepartmentTree, userInputSchema } from './accounts';

const dept = (id: number, parentId: number | null, name: string): Department => ({
  id,
  name,
  parentId,
  path: '',
  type: 1,
  status: 1,
  headUserId: null,
  headUserName: null,
  memberCount: 0,
  roleIdList: [],
});

describe('toDepartmentTree', () => {
  it('nests departments under their parents in list order', () => {
    const tree = toDepartmentTree([
      dept(1, null, 'HQ'),
      dept(2, 1, 'Design'),
      dept(3, 2, 'Shoes'),
      dept(4, 1, 'Sales'),
    ]);
    expect(tree.map((n) => n.name)).toEqual(['HQ']);
    expect(tree[0]?.children.map((n) => n.name)).toEqual(['Design', 'Sales']);
    expect(tree[0]?.children[0]?.children.map((n) => n.name)).toEqual(['Shoes']);
  });

  it('keeps a department whose parent is missing as a root rather than losing it', () => {
    expect(toDepartmentTree([dept(5, 99, 'Orphan')]).map((n) => n.id)).toEqual([5]);
  });
});

describe('userInputSchema', () => {
  const base = { name: 'Wang', deptId: 2 };

  it('needs an e-mail address or a phone number to sign in with', () => {
    const result = userInputSchema.safeParse({ ...base, email: '  ', mobile: '' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['email', 'emailOrMobile'],
    ]);
    expect(userInputSchema.parse({ ...base, mobile: '13800000000' })).toMatchObject({
      email: null,
      mobile: '13800000000',
      roleIdList: [],
    });
  });

  it('refuses the reserved user names admin and editor, in any case', () => {
    for (const username of ['admin', 'Editor']) {
      const result = userInputSchema.safeParse({ ...base, email: 'a@b.cn', username });
      expect(result.error?.issues[0]?.message).toBe('usernameReserved');
    }
    expect(userInputSchema.parse({ ...base, email: 'a@b.cn', username: 'admin2' }).username).toBe('admin2');
  });

  it('names a malformed e-mail address and a phone number that is not 11 digits', () => {
    const result = userInputSchema.safeParse({ ...base, email: 'not-mail', mobile: '12345' });
    expect(result.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['email', 'mobile']);
  });
});

describe('roleInputSchema', () => {
  it('accepts only the function codes of SPEC §6 (and codes 9 and 10) and the three scopes', () => {
    const role = {
      name: 'Designer',
      filePermissions: { view: 'dept', upload: 'dept', download: 'all', share: 'none' },
      functionCodes: [8],
    };
    expect(roleInputSchema.safeParse(role).success).toBe(true);
    // Codes 9 (templates, issue 16), 10 (the jobs screen, issue 40) and 11 (approving, issue 43) are ours beyond SPEC's eight; 12 is nothing.
    expect(roleInputSchema.safeParse({ ...role, functionCodes: [9] }).success).toBe(true);
    expect(roleInputSchema.safeParse({ ...role, functionCodes: [10] }).success).toBe(true);
    expect(roleInputSchema.safeParse({ ...role, functionCodes: [11] }).success).toBe(true);
    expect(roleInputSchema.safeParse({ ...role, functionCodes: [12] }).success).toBe(false);
    expect(
      roleInputSchema.safeParse({ ...role, filePermissions: { ...role.filePermissions, view: 'self' } })
        .success,
    ).toBe(false);
    expect(roleInputSchema.safeParse({ ...role, name: '   ' }).error?.issues[0]?.message).toBe('blankName');
  });
});
