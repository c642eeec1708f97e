import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ADMIN_POST, createMatrixWorld, type MatrixWorld, type Row } from '../scenarios/permission-matrix';

/**
 * The permission matrix over administration (security API): a caller's reach is their own
 * department subtree; out of reach answers like an unknown id.
 * The matrix itself, its callers and what each row checks: server/test/scenarios/permission-matrix.ts.
 */
describe('permission matrix: a caller from a sibling department is refused and nothing changes', () => {
  let w: MatrixWorld;
  beforeAll(async () => {
    w = await createMatrixWorld();
  });
  afterAll(() => w?.t.close());

  const rows: Row[] = [
    // Administration (security API): a caller's reach is their own department subtree. Out of
    // reach answers like an unknown id: SED_06 department, SED_04 parent department, SED_02 user.
    {
      route: 'POST /security-api/dept-detail',
      needs: 'code 2, department within reach',
      target: 'dept',
      hidden: 'SED_06',
      request: (i) => ADMIN_POST('dept-detail', { deptId: i.dept }),
    },
    {
      route: 'POST /security-api/edit-dept',
      needs: 'code 2, department within reach',
      target: 'dept',
      fresh: 'dept',
      hidden: 'SED_06',
      request: (i) =>
        ADMIN_POST('edit-dept', { deptId: i.dept, name: `Renamed ${i.dept}`, parentId: w.deptOf.bOwner }),
    },
    {
      route: 'POST /security-api/edit-dept (parentId: move own department under the target)',
      needs: 'code 2, new parent within reach',
      target: 'dept',
      hidden: 'SED_04',
      prepare: (who) => w.ownDept(who),
      request: (i, own) => ADMIN_POST('edit-dept', { deptId: own, name: `Moved ${own}`, parentId: i.dept }),
    },
    {
      route: 'POST /security-api/delete-dept',
      needs: 'code 2, department within reach',
      target: 'dept',
      fresh: 'dept',
      hidden: 'SED_06',
      request: (i) => ADMIN_POST('delete-dept', { deptId: i.dept }),
    },
    {
      route: 'POST /security-api/create-dept (parentId)',
      needs: 'code 2, parent within reach',
      target: 'dept',
      hidden: 'SED_04',
      request: (i) =>
        ADMIN_POST('create-dept', { name: `New ${randomBytes(3).toString('hex')}`, parentId: i.dept }),
    },
    {
      route: 'POST /security-api/user-list (deptId)',
      needs: 'code 2, department within reach',
      target: 'dept',
      hidden: 'SED_06',
      request: (i) => ADMIN_POST('user-list', { deptId: i.dept }),
    },
    {
      route: 'POST /security-api/create-user (deptId)',
      needs: 'code 2, department within reach',
      target: 'dept',
      hidden: 'SED_06',
      request: (i) =>
        ADMIN_POST('create-user', {
          name: 'Probe',
          email: `probe-${randomBytes(4).toString('hex')}@example.com`,
          deptId: i.dept,
        }),
    },
    {
      route: 'POST /security-api/user-detail',
      needs: 'code 2, user within reach',
      target: 'member',
      hidden: 'SED_02',
      request: (i) => ADMIN_POST('user-detail', { userId: i.member }),
    },
    {
      route: 'POST /security-api/edit-user',
      needs: 'code 2, user within reach',
      target: 'member',
      fresh: 'member',
      hidden: 'SED_02',
      request: (i) =>
        ADMIN_POST('edit-user', {
          userId: i.member,
          name: 'Renamed member',
          email: i.memberEmail,
          deptId: w.deptOf.bOwner,
          roleIdList: [],
        }),
    },
    {
      route: 'POST /security-api/delete-user',
      needs: 'code 2, user within reach',
      target: 'member',
      fresh: 'member',
      hidden: 'SED_02',
      request: (i) => ADMIN_POST('delete-user', { userId: i.member }),
    },
    {
      route: 'POST /security-api/reset-pwd',
      needs: 'code 2, user within reach',
      target: 'member',
      fresh: 'member',
      hidden: 'SED_02',
      request: (i) => ADMIN_POST('reset-pwd', { userId: i.member }),
    },
  ];

  it.each(rows.map((row) => [row.route, row] as const))('%s', async (_route, row) => {
    await w.probe(row);
  });

  // Roles are not owned by a department: every administrator lists them all, so a role beyond
  // the caller answers SE_502, never not-found (see accounts-confinement.test.ts).
});
