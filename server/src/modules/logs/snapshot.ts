import { LOG_ITEMS_KEPT } from '@dam/contract';
import type { LogsRepository } from './repository';

/**
 * What an operation concerned; the log copies names and facts from it. Any combination: items
 * (files and folders), upload records (their file names), a user's whole recycle bin, one user,
 * department, role or share link. `newValue` and `details` are added as given.
 */
export interface LogSubject {
  items?: readonly number[];
  uploads?: readonly number[];
  recycleBinOf?: number;
  user?: number;
  department?: number;
  role?: number;
  share?: number;
  shareCode?: string;
  newValue?: string | null;
  details?: Record<string, unknown>;
}

export type StateValue = string | number | boolean | null | string[];

/** What a subject looked like at one moment. */
export interface Snapshot {
  itemIds: number[];
  itemNames: string[];
  itemCount: number;
  /** Identifying facts (names of the user, department, role or link at that moment). */
  details: Record<string, unknown>;
  /** The comparable fields of a single target (for `changes` and `values`), or null. */
  state: Record<string, StateValue> | null;
}

/**
 * The subject as it is now: names and facts are copied into the entry, so later changes (a file
 * renamed, a user deleted) leave the entry as it was written.
 */
export async function takeSnapshot(repo: LogsRepository, subject: LogSubject): Promise<Snapshot> {
  const ids: number[] = [];
  const names: string[] = [];
  let count = 0;
  const details: Record<string, unknown> = {};
  let state: Record<string, StateValue> | null = null;
  const addItems = (rows: ReadonlyArray<{ id: number; name: string }>, total = rows.length) => {
    for (const row of rows) {
      if (ids.length >= LOG_ITEMS_KEPT) break;
      ids.push(row.id);
      names.push(row.name);
    }
    count += total;
  };

  if (subject.items && subject.items.length > 0) {
    const unique = [...new Set(subject.items)];
    const rows = await repo.items(unique.slice(0, LOG_ITEMS_KEPT));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const found = unique.slice(0, LOG_ITEMS_KEPT).flatMap((id) => byId.get(id) ?? []);
    addItems(found, unique.length);
    const paths = [...new Set(found.map((r) => r.folder_path))];
    const only = found.length === 1 ? found[0] : undefined;
    state = only
      ? {
          name: only.name,
          path: only.folder_path,
          artNum: only.art_num,
          startValidTime: only.expire_start_date,
          endValidTime: only.expire_end_date,
        }
      : { path: paths.length === 1 ? (paths[0] as string) : null };
  }
  if (subject.uploads && subject.uploads.length > 0) {
    const rows = await repo.uploads(subject.uploads.slice(0, LOG_ITEMS_KEPT));
    addItems(
      rows.map((r) => ({ id: r.item_id ?? 0, name: r.file_name })).filter((r) => r.id !== 0),
      subject.uploads.length,
    );
    const only = rows.length === 1 ? rows[0] : undefined;
    if (only) {
      details.format = only.format;
      details.fileSize = only.file_size;
      if (only.folder_path) details.folderPath = only.folder_path;
    }
  }
  if (subject.recycleBinOf !== undefined) addItems(await repo.recycledRoots(subject.recycleBinOf));
  if (subject.user !== undefined) {
    const user = await repo.user(subject.user);
    if (user) {
      details.userId = user.id;
      details.userName = user.name;
      state = {
        name: user.name,
        username: user.username,
        email: user.email,
        mobile: user.mobile,
        dept: user.dept_name,
        roles: user.roles,
        status: user.status,
      };
    }
  }
  if (subject.department !== undefined) {
    const dept = await repo.department(subject.department);
    if (dept) {
      details.deptId = dept.id;
      details.deptName = dept.name;
      state = {
        name: dept.name,
        parent: dept.parent_name,
        head: dept.head_name,
        roles: dept.roles,
        status: dept.status,
      };
    }
  }
  if (subject.role !== undefined) {
    const role = await repo.role(subject.role);
    if (role) {
      details.roleId = role.id;
      details.roleName = role.name;
      state = {
        name: role.name,
        view: role.view_scope,
        upload: role.upload_scope,
        download: role.download_scope,
        share: role.share_scope,
        functionCodes: [...role.function_codes].sort((a, b) => a - b).map(String),
      };
    }
  }
  if (subject.share !== undefined || subject.shareCode !== undefined) {
    const share = await repo.share(
      subject.share !== undefined ? { id: subject.share } : { code: subject.shareCode as string },
    );
    if (share) {
      // Never the code or the password: they are the link's secret, and log readers are not its owner.
      Object.assign(details, {
        shareId: share.id,
        ownerId: share.owner_id,
        ownerName: share.owner_name,
        needPassword: share.password !== null,
        validity: share.validity,
        expiresAt: share.expires_at?.toISOString() ?? null,
      });
      if (ids.length === 0) addItems(share.items);
    }
  }
  return { itemIds: ids, itemNames: names, itemCount: count, details, state };
}

/** The fields that differ between two snapshots' states, as [before, after]. */
export function diff(
  before: Record<string, StateValue>,
  after: Record<string, StateValue>,
): Record<string, [StateValue, StateValue]> {
  const changes: Record<string, [StateValue, StateValue]> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[key] = [from, to];
  }
  return changes;
}
