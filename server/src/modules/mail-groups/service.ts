import {
  type editMailGroupRequestSchema,
  FunctionCode,
  MAIL_GROUP_LIST_MAX,
  MAIL_GROUP_PREVIEW_MEMBERS,
  type MailGroupCandidates,
  type MailGroupDepartment,
  type MailGroupDetail,
  type MailGroupPage,
  type MailGroupSummary,
  type mailGroupCandidatesRequestSchema,
  type mailGroupInputSchema,
  type mailGroupListQuerySchema,
} from '@dam/contract';
import type { z } from 'zod';
import { isUniqueViolation } from '../../db/sql-helpers';
import { AppError } from '../../http/app-error';
import type { Clock } from '../../lib/clock';
import { type AuthContext, administrationReach, requireAnyCode, withinReach } from '../access/access';
import { reachableDepartment } from '../accounts/checks';
import { departmentDto, treeOrder } from '../accounts/presenter';
import type { AccountsRepository } from '../accounts/repository';
import type { UserFilter } from '../accounts/users.repository';
import type { MailGroupRecord, MailGroupsRepository } from './repository';

type GroupInput = z.output<typeof mailGroupInputSchema>;
type EditGroupInput = z.output<typeof editMailGroupRequestSchema>;
type ListQuery = z.output<typeof mailGroupListQuerySchema>;
type CandidatesQuery = z.output<typeof mailGroupCandidatesRequestSchema>;

/** What a group held at one moment, for the operation log. */
export interface MailGroupState {
  name: string;
  members: Array<{ id: number; name: string }>;
  externalEmails: string[];
}

/** A change that happened: the group before (null: created) and after (null: deleted). */
export interface MailGroupChange {
  id: number;
  before: MailGroupState | null;
  after: MailGroupState | null;
}

/**
 * Mail groups (SPEC §2 /mail, §3, §5, §6 code 1, §7 user/mail-group-list).
 *
 * Administering them needs function code 1 and stays inside the caller's reach, as accounts
 * administration does (`administrationReach`: everything when every file scope of theirs is "all",
 * otherwise their own department subtree): a group belongs to the department of whoever made it,
 * and a group outside the reach is answered like an unknown id (SE_404); a user outside it cannot
 * be added (SED_02, like an unknown user), though one already in a group may stay. Any signed-in
 * user may list the groups they can send to (their department's, those above and below it).
 * Every save is one transaction holding the group's row; a deletion of a group already gone
 * changes nothing and succeeds.
 */
export class MailGroupsService {
  constructor(
    private readonly repo: MailGroupsRepository,
    private readonly accounts: AccountsRepository,
    private readonly clock: Clock,
  ) {}

  // ── Reading ───────────────────────────────────────────────────────────────────────────────

  /** GET user/mail-group-list: the groups the caller may send to, by name. */
  async usableGroups(auth: AuthContext, keyword: string | undefined): Promise<MailGroupSummary[]> {
    const reach = administrationReach(auth);
    if (reach.kind === 'none') return [];
    const rows = await this.repo.usableGroups(
      reach.kind === 'all' ? { everything: true } : { everything: false, deptPath: reach.pathPrefix },
      keyword || undefined,
      MAIL_GROUP_LIST_MAX,
    );
    return this.summaries(rows);
  }

  /** GET manage/mail-group/list (code 1): the groups the caller administers, by name. */
  async listGroups(auth: AuthContext, query: ListQuery): Promise<MailGroupPage> {
    requireAnyCode(auth, FunctionCode.mail);
    const reach = administrationReach(auth);
    const keyword = query.keyword || undefined;
    const [rows, total] = await Promise.all([
      this.repo.listGroups(reach, keyword, (query.pageNo - 1) * query.pageSize, query.pageSize),
      this.repo.countGroups(reach, keyword),
    ]);
    return { list: await this.summaries(rows), total, pageNo: query.pageNo, pageSize: query.pageSize };
  }

  async groupDetail(auth: AuthContext, id: number): Promise<MailGroupDetail> {
    requireAnyCode(auth, FunctionCode.mail);
    const group = await this.reachableGroup(this.repo, auth, id);
    const [members, externalEmails] = await Promise.all([this.repo.members(id), this.repo.addresses(id)]);
    return {
      id: group.id,
      mailGroupName: group.name,
      members: members.map((m) => ({
        userId: m.user_id,
        name: m.name,
        email: m.email,
        deptName: m.dept_name,
      })),
      externalEmails,
      memberCount: group.member_count,
      deptId: group.dept_id,
      deptName: group.dept_name,
      createdByName: group.created_by_name,
      createdAt: group.created_at.toISOString(),
      updatedAt: group.updated_at.toISOString(),
    };
  }

  /** The departments of the member picker: the caller's reach, parents before children. */
  async departments(auth: AuthContext): Promise<{ departments: MailGroupDepartment[] }> {
    requireAnyCode(auth, FunctionCode.mail);
    const reach = administrationReach(auth);
    if (reach.kind === 'none') return { departments: [] };
    const rows = await this.accounts.departments.listLiveDepartments(
      reach.kind === 'subtree' ? reach.pathPrefix : undefined,
    );
    const ordered = treeOrder(rows.map(departmentDto));
    const ids = new Set(ordered.map((d) => d.id));
    return {
      departments: ordered.map((d) => ({
        id: d.id,
        name: d.name,
        // The top of the reach has its parent outside it.
        parentId: d.parentId !== null && ids.has(d.parentId) ? d.parentId : null,
        memberCount: d.memberCount,
      })),
    };
  }

  /** The users the caller may add (live, within the reach), by name, paged. */
  async candidates(auth: AuthContext, query: CandidatesQuery): Promise<MailGroupCandidates> {
    requireAnyCode(auth, FunctionCode.mail);
    const reach = administrationReach(auth);
    const empty = { list: [], total: 0, pageNo: query.pageNo, pageSize: query.pageSize };
    if (reach.kind === 'none') return empty;
    const filter: UserFilter = {};
    if (query.deptId !== undefined) {
      const dept = await reachableDepartment(this.accounts, reach, query.deptId);
      if (query.includeSubDepts === false) filter.deptId = dept.id;
      else filter.deptPathPrefix = dept.path;
    } else if (reach.kind === 'subtree') {
      filter.deptPathPrefix = reach.pathPrefix;
    }
    if (query.keyword) filter.keyword = query.keyword;
    const [total, rows] = await Promise.all([
      this.accounts.users.countListedUsers(filter),
      this.accounts.users.listUsers(filter, (query.pageNo - 1) * query.pageSize, query.pageSize),
    ]);
    return {
      list: rows.map((u) => ({ userId: u.id, name: u.name, email: u.email, deptName: u.dept_name })),
      total,
      pageNo: query.pageNo,
      pageSize: query.pageSize,
    };
  }

  // ── Changing ──────────────────────────────────────────────────────────────────────────────

  async createGroup(auth: AuthContext, body: GroupInput): Promise<MailGroupChange> {
    requireAnyCode(auth, FunctionCode.mail);
    const reach = administrationReach(auth);
    // Someone who administers nothing would make a group nobody but an all-reaching one sees.
    if (reach.kind === 'none') throw new AppError('SE_502');
    return translateNameTaken(() =>
      this.repo.transaction(async (repo) => {
        if (await repo.nameTaken(body.mailGroupName, null)) throw new AppError('SEML_01');
        await requireAddable(repo, auth, body.userIdList);
        const id = await repo.insertGroup({
          name: body.mailGroupName,
          deptId: auth.deptId,
          userId: auth.userId,
          now: this.clock.now(),
        });
        await repo.setUsers(id, body.userIdList);
        await repo.setAddresses(id, body.externalEmails);
        return { id, before: null, after: await stateOf(repo, id, body.mailGroupName) };
      }),
    );
  }

  /** The whole group is sent: its name, users and addresses replace the old ones. */
  async editGroup(auth: AuthContext, body: EditGroupInput): Promise<MailGroupChange> {
    requireAnyCode(auth, FunctionCode.mail);
    return translateNameTaken(() =>
      this.repo.transaction(async (repo) => {
        const group = await this.reachableGroup(repo, auth, body.id, true);
        if (await repo.nameTaken(body.mailGroupName, group.id)) throw new AppError('SEML_01');
        const before = await stateOf(repo, group.id, group.name);
        // Only users added now must be within the reach; those already in the group may stay.
        const current = new Set(await repo.userIds(group.id));
        await requireAddable(
          repo,
          auth,
          body.userIdList.filter((id) => !current.has(id)),
        );
        await repo.renameGroup(group.id, body.mailGroupName, auth.userId, this.clock.now());
        await repo.setUsers(group.id, body.userIdList);
        await repo.setAddresses(group.id, body.externalEmails);
        return { id: group.id, before, after: await stateOf(repo, group.id, body.mailGroupName) };
      }),
    );
  }

  /**
   * Deletes a group with its members. One already gone, or outside the reach (which answers like
   * one that does not exist), changes nothing and answers null, so a repeated or concurrent
   * deletion is no error.
   */
  async deleteGroup(auth: AuthContext, id: number): Promise<MailGroupChange | null> {
    requireAnyCode(auth, FunctionCode.mail);
    const reach = administrationReach(auth);
    return this.repo.transaction(async (repo) => {
      const group = await repo.findGroup(id, true);
      if (!group || !withinReach(reach, group.dept_path)) return null;
      const before = await stateOf(repo, id, group.name);
      return (await repo.deleteGroup(id)) ? { id, before, after: null } : null;
    });
  }

  // ── Helpers ───────────────────────────────────────────────────────────────────────────────

  /** A group within the caller's reach; SE_404 otherwise, as for an id that does not exist. */
  private async reachableGroup(
    repo: MailGroupsRepository,
    auth: AuthContext,
    id: number,
    lock = false,
  ): Promise<MailGroupRecord> {
    const group = await repo.findGroup(id, lock);
    if (!group || !withinReach(administrationReach(auth), group.dept_path)) throw new AppError('SE_404');
    return group;
  }

  private async summaries(rows: MailGroupRecord[]): Promise<MailGroupSummary[]> {
    const previews = await this.repo.previewNames(
      rows.map((r) => r.id),
      MAIL_GROUP_PREVIEW_MEMBERS,
    );
    return rows.map((row) => ({
      id: row.id,
      mailGroupName: row.name,
      members: previews.get(row.id) ?? [],
      memberCount: row.member_count,
      checked: false,
      deptId: row.dept_id,
      deptName: row.dept_name,
      createdByName: row.created_by_name,
      updatedAt: row.updated_at.toISOString(),
    }));
  }
}

/** SED_02 unless every one of `userIds` is a live user within the caller's reach. */
async function requireAddable(
  repo: MailGroupsRepository,
  auth: AuthContext,
  userIds: readonly number[],
): Promise<void> {
  if (userIds.length === 0) return;
  const reach = administrationReach(auth);
  const users = await repo.liveUsers(userIds);
  if (users.length !== userIds.length || users.some((u) => !withinReach(reach, u.dept_path)))
    throw new AppError('SED_02');
}

async function stateOf(repo: MailGroupsRepository, id: number, name: string): Promise<MailGroupState> {
  // One after the other: inside a transaction both would queue on its one connection anyway.
  const members = await repo.members(id);
  const externalEmails = await repo.addresses(id);
  return { name, members: members.map((m) => ({ id: m.user_id, name: m.name })), externalEmails };
}

/** Two saves racing for one name: the unique index decides, answered as the check would (SEML_01). */
async function translateNameTaken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('SEML_01');
    throw error;
  }
}
