import {
  DUPLICATE_REPORT_MAX_PAIRS,
  type DuplicateCluster,
  type DuplicateReport,
  type DuplicateReportRequest,
  FunctionCode,
  ItemType,
} from '@dam/contract';
import { AppError, invalidField } from '../../http/app-error';
import {
  type AuthContext,
  administrationReach,
  fileScopeFilter,
  requireAnyCode,
  withinReach,
} from '../access/access';
import { requireLiveItem } from '../items/policy';
import { joinPath } from '../items/presenter';
import type { DuplicateReportRepository, ItemPair, MemberFacts, ReportScope } from './report.repository';
import type { SimilarRepository } from './repository';
import type { Match, SimilarService } from './service';

/** An export holds at most this many files (rows): beyond it, narrow the scope. */
export const DUPLICATE_EXPORT_MAX_FILES = 50_000;

export interface DuplicateReportDeps {
  report: DuplicateReportRepository;
  similarRepo: SimilarRepository;
  similar: SimilarService;
  /** SIMILAR_MAX_DISTANCE and SIMILAR_MAX_COLOUR_DISTANCE: the report's rule unless asked otherwise. */
  maxDistance: number;
  maxColourDistance: number;
  progress: () => Promise<{ done: number; total: number } | null>;
}

/** A cluster before it is presented: its members (the kept one first) and their distance to it. */
interface Cluster {
  members: MemberFacts[];
  distanceToKeeper: Map<number, number | null>;
  bytesFreeable: number;
}

/**
 * The duplicate report for holders of function code 6 (issue 17, plan §7): clusters of files found
 * alike (the stored pairs, within the rule), among the files the caller may see, largest savings
 * first. Each cluster keeps its member with the most pixels (then the oldest); deleting the others
 * would free `bytesFreeable`.
 */
export class DuplicateReportService {
  constructor(private readonly deps: DuplicateReportDeps) {}

  async report(
    auth: AuthContext,
    request: DuplicateReportRequest,
    page: { pageNo: number; pageSize: number },
  ): Promise<DuplicateReport> {
    const { clusters, maxDistance } = await this.clusters(auth, request);
    const start = (page.pageNo - 1) * page.pageSize;
    const shown = clusters.slice(start, start + page.pageSize);
    return {
      progress: await this.deps.progress(),
      maxDistance,
      totals: {
        clusters: clusters.length,
        items: clusters.reduce((sum, cluster) => sum + cluster.members.length, 0),
        bytesFreeable: clusters.reduce((sum, cluster) => sum + cluster.bytesFreeable, 0),
      },
      list: await this.present(auth, shown, start),
      hasMore: start + shown.length < clusters.length,
    };
  }

  /**
   * The clusters, presented, for the export: the largest savings first, as many as hold at most
   * DUPLICATE_EXPORT_MAX_FILES files (`cut` says whether some were left out).
   */
  async all(
    auth: AuthContext,
    request: DuplicateReportRequest,
  ): Promise<{
    clusters: DuplicateCluster[];
    maxDistance: number;
    cut: boolean;
    /** What the export covers, as the page's filters named it (null: all within reach). */
    department: string | null;
    folder: string | null;
    progress: { done: number; total: number } | null;
  }> {
    const { clusters, maxDistance, scope } = await this.clusters(auth, request);
    const kept: Cluster[] = [];
    let files = 0;
    for (const cluster of clusters) {
      if (files + cluster.members.length > DUPLICATE_EXPORT_MAX_FILES) break;
      kept.push(cluster);
      files += cluster.members.length;
    }
    // Named whenever the scope is one department's subtree: asked for, or all an administrator reaches.
    const department = scope.deptPath
      ? ((await this.deps.report.departmentNames([scope.deptPath])).get(scope.deptPath) ?? null)
      : null;
    return {
      clusters: await this.present(auth, kept, 0),
      maxDistance,
      cut: kept.length < clusters.length,
      department,
      folder: scope.folderLabel ?? null,
      progress: await this.deps.progress(),
    };
  }

  private async clusters(
    auth: AuthContext,
    request: DuplicateReportRequest,
  ): Promise<{ clusters: Cluster[]; maxDistance: number; scope: ReportScope & { folderLabel?: string } }> {
    requireAnyCode(auth, FunctionCode.data);
    const scope = await this.scopeOf(auth, request);
    const maxDistance = request.maxDistance ?? this.deps.maxDistance;
    const pairs = await this.deps.report.pairs(
      scope,
      maxDistance,
      Math.round(this.deps.maxColourDistance * 1000),
      DUPLICATE_REPORT_MAX_PAIRS + 1,
    );
    if (pairs.length > DUPLICATE_REPORT_MAX_PAIRS) throw invalidField('deptId', 'tooBroad');
    const ids = [...new Set(pairs.flatMap((pair) => [pair.itemA, pair.itemB]))];
    const visible = await this.deps.report.visibleMembers(ids, {
      userId: auth.userId,
      view: fileScopeFilter(auth, 'view'),
    });
    const facts = new Map(visible.map((member) => [member.id, member]));
    const seen = pairs.filter((pair) => facts.has(pair.itemA) && facts.has(pair.itemB));
    return { clusters: clustersOf(seen, facts), maxDistance, scope };
  }

  /** The department (within the caller's reach) and folder (one they may see) the report covers. */
  private async scopeOf(
    auth: AuthContext,
    request: DuplicateReportRequest,
  ): Promise<ReportScope & { folderLabel?: string }> {
    const reach = administrationReach(auth);
    // Code 6 without a department to administer: there is nothing the report may cover.
    if (reach.kind === 'none') throw new AppError('SE_502');
    const scope: ReportScope & { folderLabel?: string } = {};
    if (request.deptId !== undefined) {
      const path = await this.deps.report.departmentPath(request.deptId);
      // A department outside the caller's reach is answered as one that does not exist.
      if (path === null || !withinReach(reach, path)) throw invalidField('deptId', 'invalidValue');
      scope.deptPath = path;
    } else if (reach.kind === 'subtree') {
      scope.deptPath = reach.pathPrefix;
    }
    if (request.folderDataId !== undefined) {
      const folder = requireLiveItem(auth, await this.deps.similarRepo.itemFacts(request.folderDataId));
      if (folder.type !== ItemType.folder) throw invalidField('folderDataId', 'invalidValue');
      scope.folderIdPath = folder.id_path;
      scope.folderLabel = joinPath(folder.folder_path, folder.name);
    }
    return scope;
  }

  private async present(auth: AuthContext, clusters: Cluster[], offset: number): Promise<DuplicateCluster[]> {
    const lists: Match[][] = clusters.map((cluster) =>
      cluster.members.map((member) => ({
        itemId: member.id,
        distance: cluster.distanceToKeeper.get(member.id) ?? null,
        colourDistance: null,
        width: null,
        height: null,
      })),
    );
    const presented = await this.deps.similar.present(auth, lists);
    const members = clusters.flatMap((cluster) => cluster.members);
    const names = await this.deps.report.departmentNames(members.map((member) => member.deptPath));
    const deptOf = new Map(members.map((member) => [member.id, names.get(member.deptPath) ?? '']));
    return clusters.map((cluster, index) => ({
      clusterId: offset + index + 1,
      bytesFreeable: cluster.bytesFreeable,
      members: (presented[index] ?? []).map((item) => ({
        ...item,
        keep: item.id === cluster.members[0]?.id,
        deptName: deptOf.get(item.id) ?? '',
      })),
    }));
  }
}

/**
 * Union-find over the pairs: each connected group is a cluster. Chains (A~B~C with A far from C)
 * stay one cluster; each member shows its distance to the kept one when they were paired.
 */
export function clustersOf(pairs: ItemPair[], facts: Map<number, MemberFacts>): Cluster[] {
  const parent = new Map<number, number>();
  const find = (id: number): number => {
    let root = id;
    while (parent.get(root) !== undefined && parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  for (const pair of pairs) {
    if (!parent.has(pair.itemA)) parent.set(pair.itemA, pair.itemA);
    if (!parent.has(pair.itemB)) parent.set(pair.itemB, pair.itemB);
    const a = find(pair.itemA);
    const b = find(pair.itemB);
    if (a !== b) parent.set(Math.max(a, b), Math.min(a, b));
  }
  const groups = new Map<number, MemberFacts[]>();
  for (const id of parent.keys()) {
    const member = facts.get(id);
    if (!member) continue;
    const root = find(id);
    groups.set(root, [...(groups.get(root) ?? []), member]);
  }
  const distance = new Map<string, number>();
  for (const pair of pairs) distance.set(`${pair.itemA}:${pair.itemB}`, pair.distance);
  const clusters: Cluster[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    members.sort(
      (p, q) => q.pixels - p.pixels || p.createdAt.getTime() - q.createdAt.getTime() || p.id - q.id,
    );
    const keeper = members[0]!;
    const distanceToKeeper = new Map<number, number | null>([[keeper.id, 0]]);
    for (const member of members.slice(1)) {
      const key = keeper.id < member.id ? `${keeper.id}:${member.id}` : `${member.id}:${keeper.id}`;
      distanceToKeeper.set(member.id, distance.get(key) ?? null);
    }
    const bytesFreeable = members.slice(1).reduce((sum, member) => sum + member.totalSize, 0);
    clusters.push({ members, distanceToKeeper, bytesFreeable });
  }
  return clusters.sort(
    (p, q) =>
      q.bytesFreeable - p.bytesFreeable ||
      q.members.length - p.members.length ||
      p.members[0]!.id - q.members[0]!.id,
  );
}
