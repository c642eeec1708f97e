import { ALL_FUNCTION_CODES, PermissionScope } from '@dam/contract';
import { generatePassword, hashPassword } from '../../lib/password';
import type { AccountsRepository } from './repository';

export interface BootstrapOptions {
  adminEmail: string;
  /** When absent a random password is generated; the administrator must change it on first sign-in. */
  adminPassword: string | undefined;
}

export type BootstrapOutcome =
  | { created: false }
  | { created: true; adminEmail: string; generatedPassword: string | null };

/**
 * First start: a root department, an administrator role holding every code with every file
 * permission over everything, and the administrator. Later starts find users and change nothing.
 */
export async function ensureFirstAdministrator(
  accounts: AccountsRepository,
  options: BootstrapOptions,
): Promise<BootstrapOutcome> {
  // Hash before taking the lock: argon2 takes ~100 ms and the lock should be short.
  const generatedPassword = options.adminPassword ? null : generatePassword();
  const passwordHash = await hashPassword(options.adminPassword ?? (generatedPassword as string));
  return accounts.withStartupLock(async (repo) => {
    if ((await repo.users.countUsers()) > 0) return { created: false };
    const root = await repo.departments.createDepartment({ name: '总部', parentId: null });
    const adminRole = await repo.roles.createRole({
      name: '系统管理员',
      scopes: {
        view: PermissionScope.all,
        upload: PermissionScope.all,
        download: PermissionScope.all,
        share: PermissionScope.all,
      },
      functionCodes: [...ALL_FUNCTION_CODES],
      isSystem: true,
    });
    await repo.users.createAccount({
      name: '管理员',
      email: options.adminEmail,
      mobile: null,
      username: null,
      deptId: root.id,
      passwordHash,
      mustChangePassword: generatedPassword !== null,
      roleIds: [adminRole],
    });
    return { created: true, adminEmail: options.adminEmail, generatedPassword };
  });
}
