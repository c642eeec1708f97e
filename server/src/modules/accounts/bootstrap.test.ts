import { ALL_FUNCTION_CODES, isStrongPassword } from '@dam/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/harness';
import type { DatabaseHandle } from '../../db/database';
import { verifyPassword } from '../../lib/password';
import { ensureFirstAdministrator } from './bootstrap';
import { AccountsRepository } from './repository';

describe('first start', () => {
  let database: DatabaseHandle;
  afterEach(() => database.close());

  it('creates the root department, the all-powerful role and the administrator once', async () => {
    database = await createTestDatabase();
    const repo = new AccountsRepository(database.db);
    const first = await ensureFirstAdministrator(repo, {
      adminEmail: 'Boss@Example.com',
      adminPassword: 'Admin#2026',
    });
    expect(first).toEqual({ created: true, adminEmail: 'Boss@Example.com', generatedPassword: null });

    const admin = await database.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    expect(admin.email).toBe('boss@example.com');
    expect(admin.must_change_password).toBe(false);
    const dept = await database.db.selectFrom('departments').selectAll().executeTakeFirstOrThrow();
    expect(dept).toMatchObject({ parent_id: null, path: `/${dept.id}/` });
    expect(admin.dept_id).toBe(dept.id);
    const role = await database.db.selectFrom('roles').selectAll().executeTakeFirstOrThrow();
    expect(role).toMatchObject({
      is_system: true,
      view_scope: 'all',
      upload_scope: 'all',
      download_scope: 'all',
      share_scope: 'all',
      function_codes: [...ALL_FUNCTION_CODES],
    });

    // A later start with another password changes nothing.
    const second = await ensureFirstAdministrator(repo, {
      adminEmail: 'other@example.com',
      adminPassword: 'Other#2026',
    });
    expect(second).toEqual({ created: false });
    const users = await database.db.selectFrom('users').selectAll().execute();
    expect(users).toHaveLength(1);
    expect(await verifyPassword(users[0]!.password_hash!, 'Admin#2026')).toBe(true);
  });

  it('generates a strong password when none is configured and asks for it to be changed', async () => {
    database = await createTestDatabase();
    const outcome = await ensureFirstAdministrator(new AccountsRepository(database.db), {
      adminEmail: 'admin@example.com',
      adminPassword: undefined,
    });
    if (!outcome.created || !outcome.generatedPassword) throw new Error('expected a generated password');
    expect(isStrongPassword(outcome.generatedPassword)).toBe(true);
    const admin = await database.db.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    expect(admin.must_change_password).toBe(true);
    expect(await verifyPassword(admin.password_hash!, outcome.generatedPassword)).toBe(true);
  });

  it('seeds one administrator when two servers start together', async () => {
    database = await createTestDatabase();
    const options = { adminEmail: 'admin@example.com', adminPassword: 'Admin#2026' };
    const outcomes = await Promise.all([
      ensureFirstAdministrator(new AccountsRepository(database.db), options),
      ensureFirstAdministrator(new AccountsRepository(database.db), options),
    ]);
    expect(outcomes.filter((o) => o.created)).toHaveLength(1);
    const users = await database.db.selectFrom('users').select('id').execute();
    expect(users).toHaveLength(1);
  });
});
