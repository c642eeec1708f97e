import { FolderOutlined, LockOutlined } from '@ant-design/icons';
import type { FolderNode } from '@dam/contract';
import { FOLDER_COUNT_CAP, LIMITS } from '@dam/contract';
import { Spin, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSubfolders } from '../api/items';

export const TOP_KEY = 'all';

function openedBranches(storageKey: string | undefined): string[] {
  if (!storageKey) return [TOP_KEY];
  try {
    const stored = JSON.parse(localStorage.getItem(storageKey) ?? 'null') as unknown;
    if (Array.isArray(stored) && stored.every((key) => typeof key === 'string')) return stored.slice(0, 200);
  } catch {
    // Damaged: opened as new.
  }
  return [TOP_KEY];
}

function rememberBranches(storageKey: string, keys: string[]): void {
  try {
    localStorage.setItem(storageKey, JSON.stringify(keys.slice(0, 200)));
  } catch {
    // Storage refused: remembered for this page only.
  }
}

interface TreeNode extends DataNode {
  key: string;
  path: string;
  children?: TreeNode[];
}

/** An item count as the tree shows it: "999+" from the server's cap on. */
export const countLabel = (count: number): string =>
  count >= FOLDER_COUNT_CAP ? `${FOLDER_COUNT_CAP - 1}+` : String(count);

function toNode(folder: FolderNode): TreeNode {
  return {
    key: String(folder.id),
    path: folder.path,
    title: (
      <span data-testid="tree-folder" data-name={folder.name}>
        {folder.name} {folder.visibility === 'private' && <LockOutlined style={{ color: '#64748b' }} />}
        {folder.itemCount !== undefined && (
          <span className="dam-tree-count" data-testid="tree-count">
            {countLabel(folder.itemCount)}
          </span>
        )}
      </span>
    ),
    icon: <FolderOutlined />,
    isLeaf: !folder.hasChildren,
  };
}

function attach(nodes: TreeNode[], key: string, children: TreeNode[]): TreeNode[] {
  return nodes.map((node) =>
    node.key === key
      ? { ...node, children, isLeaf: children.length === 0 }
      : node.children
        ? { ...node, children: attach(node.children, key, children) }
        : node,
  );
}

/**
 * The folder tree of the pickers (SPEC §2 move / choose-folder dialog): "all files" at the top,
 * opened to depth 1, subfolders loaded when a branch opens.
 */
export function FolderTree({
  selected,
  onSelect,
  refreshKey,
  withCounts = false,
  rememberAs,
  testId = 'folder-tree',
}: {
  selected: string | null;
  onSelect: (key: string, path: string) => void;
  /** Changing it reloads a branch, e.g. after a folder was created in it: `${parentKey}:${n}`. */
  refreshKey?: string;
  /** Show each folder's visible item count (the tree beside the listing, issue 39). */
  withCounts?: boolean;
  /** Keep the open branches in localStorage under this key, and open them again next time. */
  rememberAs?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const [tree, setTree] = useState<TreeNode[]>([
    { key: TOP_KEY, path: '/', title: t('files.topLevel'), icon: <FolderOutlined />, children: [] },
  ]);
  const [expanded, setExpandedState] = useState<string[]>(() => openedBranches(rememberAs));
  const setExpanded = useCallback(
    (update: string[] | ((keys: string[]) => string[])) =>
      setExpandedState((keys) => {
        const next = typeof update === 'function' ? update(keys) : update;
        if (rememberAs) rememberBranches(rememberAs, next);
        return next;
      }),
    [rememberAs],
  );
  const [loading, setLoading] = useState(true);

  const load = useCallback(
    async (key: string) => {
      const children = (await fetchSubfolders(key === TOP_KEY ? 'all' : Number(key), withCounts)).map(toNode);
      setTree((nodes) => attach(nodes, key, children));
    },
    [withCounts],
  );

  useEffect(() => {
    void load(TOP_KEY).finally(() => setLoading(false));
  }, [load]);

  useEffect(() => {
    if (!refreshKey) return;
    const key = refreshKey.split(':')[0] as string;
    void load(key).then(() => setExpanded((keys) => (keys.includes(key) ? keys : [...keys, key])));
  }, [refreshKey, load, setExpanded]);

  if (loading) return <Spin />;
  return (
    <Tree<TreeNode>
      showIcon
      blockNode
      treeData={tree}
      expandedKeys={expanded}
      onExpand={(keys) => setExpanded(keys as string[])}
      selectedKeys={selected ? [selected] : []}
      onSelect={(keys, info) => keys[0] !== undefined && onSelect(String(keys[0]), info.node.path)}
      loadData={(node) => load(String(node.key))}
      style={{ ['--ant-tree-indent-size' as string]: `${LIMITS.treeIndentPx}px` }}
      data-testid={testId}
    />
  );
}
