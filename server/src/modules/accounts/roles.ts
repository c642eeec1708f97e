import { type EditRoleRequest, FILE_PERMISSIONS, FunctionCode, type RoleInput } from '@dam/contract';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { type AuthContext, requireAnyCode } from '../access/access';
import {
  requireGrantWithinCaller,
  requireWithinCaller,
  SCOPE_RANK,
  translateUniqueViolation,
} from './checks';
import { knownCodes } from './presenter';
import type { AccountsRepository } from './repository';

const SCOPE_COLUMN = {
  view: 'view_scope',
  upload: 'upload_scope',
  download: 'download_scope',
  share: 'share_scope',
} as const;

/**
 * Administration of roles (SPEC §3, §7 security API); needs function code 3 (role). Nobody hands
 * out more than they hold: codes or scopes added to a role must lie within the caller's own
 * permissions, and a role manager changes or deletes only roles within their own permissions
 * (SE_502). Every change runs in one transaction under the accounts lock; a refused change
 * changes nothing.
 */
export class RolesService {
  constructor(
    private readonly repo: AccountsRepository,
    private readonly clock: Clock,
  ) {}

  async createRole(auth: AuthContext, body: RoleInput): Promise<{ id: number }> {
    requireAnyCode(auth, FunctionCode.role);
    const role = {
      name: body.name,
      scopes: body.filePermissions,
      functionCodes: knownCodes(body.functionCodes),
    };
    requireGrantWithinCaller(auth, role.functionCodes, role.scopes);
    const id = await translateUniqueViolation(() =>
      this.repo.locked(async (repo) => {
        if (await repo.roles.roleNameTaken(role.name, null)) throw new AppError('SEAC_06');
        return repo.roles.createRole({ ...role, now: this.clock.now() });
      }),
    );
    return { id };
  }

  /**
   * Changes a role. The role, as it is and as it becomes, must lie within the caller's own codes
   * and scopes (SE_502). The system role may be renamed and may gain nothing it lacks, but it
   * loses no function code and no file scope (SEAC_05).
   */
  async editRole(auth: AuthContext, body: EditRoleRequest): Promise<void> {
    requireAnyCode(auth, FunctionCode.role);
    const next = {
      name: body.name,
      scopes: body.filePermissions,
      functionCodes: knownCodes(body.functionCodes),
    };
    await translateUniqueViolation(() =>
      this.repo.locked(async (repo) => {
        const role = await repo.roles.findRole(body.roleId);
        if (!role) throw new AppError('SED_05');
        requireWithinCaller(auth, [role]);
        const oldCodes = knownCodes(role.function_codes);
        if (role.is_system) {
          const losesCode = oldCodes.some((code) => !next.functionCodes.includes(code));
          const losesScope = FILE_PERMISSIONS.some(
            (p) => SCOPE_RANK[next.scopes[p]] < SCOPE_RANK[role[SCOPE_COLUMN[p]]],
          );
          if (losesCode || losesScope) throw new AppError('SEAC_05');
        }
        requireGrantWithinCaller(auth, next.functionCodes, next.scopes);
        if (await repo.roles.roleNameTaken(next.name, role.id)) throw new AppError('SEAC_06');
        await repo.roles.updateRole(role.id, next, this.clock.now());
      }),
    );
  }

  /**
   * Deletes a role; users and departments simply stop holding it. The system role stays; a role
   * beyond the caller's own codes and scopes is not theirs to delete (SE_502).
   */
  async deleteRole(auth: AuthContext, roleId: number): Promise<void> {
    requireAnyCode(auth, FunctionCode.role);
    await this.repo.locked(async (repo) => {
      const role = await repo.roles.findRole(roleId);
      if (!role) throw new AppError('SED_05');
      requireWithinCaller(auth, [role]);
      if (role.is_system) throw new AppError('SEAC_05');
      await repo.roles.deleteRole(role.id);
    });
  }
}
