import { FolderOutlined, LockOutlined } from '@ant-design/icons';
import type { FolderNode } from '@dam/contract';
import { LIMITS } from '@dam/contract';
import { Spin, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchSubfolders } from './api';

export const TOP_KEY = 'all';

interface TreeNode extends DataNode {
  key: string;
  path: string;
  children?: TreeNode[];
}

function toNode(folder: FolderNode): TreeNode {
  return {
    key: String(folder.id),
    path: folder.path,
    title: (
      <span data-testid="tree-folder">
        {folder.name} {folder.visibility === 'private' && <LockOutlined style={{ color: '#94a3b8' }} />}
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
}: {
  selected: string | null;
  onSelect: (key: string, path: string) => void;
  /** Changing it reloads a branch, e.g. after a folder was created in it: `${parentKey}:${n}`. */
  refreshKey?: string;
}) {
  const { t } = useTranslation();
  const [tree, setTree] = useState<TreeNode[]>([
    { key: TOP_KEY, path: '/', title: t('files.topLevel'), icon: <FolderOutlined />, children: [] },
  ]);
  const [expanded, setExpanded] = useState<string[]>([TOP_KEY]);
  const [loading, setLoading] = useState(true);

  const load = useCallback(async (key: string) => {
    const children = (await fetchSubfolders(key === TOP_KEY ? 'all' : Number(key))).map(toNode);
    setTree((nodes) => attach(nodes, key, children));
  }, []);

  useEffect(() => {
    void load(TOP_KEY).finally(() => setLoading(false));
  }, [load]);

  useEffect(() => {
    if (!refreshKey) return;
    const key = refreshKey.split(':')[0] as string;
    void load(key).then(() => setExpanded((keys) => (keys.includes(key) ? keys : [...keys, key])));
  }, [refreshKey, load]);

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
      data-testid="folder-tree"
    />
  );
}
