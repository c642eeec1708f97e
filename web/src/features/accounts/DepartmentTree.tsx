import { Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useEffect, useMemo, useRef, useState } from 'react';

/** What the tree needs of a department: the users screen's and the mail-group picker's alike. */
export interface TreeDepartment {
  id: number;
  name: string;
  /** null, or a parent absent from the list: a top node. */
  parentId: number | null;
  /** Live members of the department itself, shown beside its name when there are any. */
  memberCount: number;
}

interface Node {
  dept: TreeDepartment;
  children: Node[];
}

function toNodes(departments: readonly TreeDepartment[]): Node[] {
  const nodes = new Map<number, Node>(departments.map((dept) => [dept.id, { dept, children: [] }]));
  const roots: Node[] = [];
  for (const node of nodes.values()) {
    const parent = node.dept.parentId === null ? undefined : nodes.get(node.dept.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

const toDataNodes = (nodes: Node[]): DataNode[] =>
  nodes.map((node) => ({ key: node.dept.id, title: node.dept.name, children: toDataNodes(node.children) }));

/**
 * A department tree to choose one department from, in the order given (parents before children).
 * Everything starts open, and so does every department added later (a new one shows at once);
 * what the user closed stays closed. With `deselectable`, choosing the chosen one again clears it.
 */
export function DepartmentTree({
  departments,
  selectedId,
  onSelect,
  deselectable = false,
}: {
  departments: readonly TreeDepartment[];
  selectedId: number | null;
  onSelect: (id: number | null) => void;
  deselectable?: boolean;
}) {
  const byId = useMemo(() => new Map(departments.map((d) => [d.id, d])), [departments]);
  const treeData = useMemo(() => toDataNodes(toNodes(departments)), [departments]);
  const [expanded, setExpanded] = useState<number[]>([]);
  const seen = useRef(new Set<number>());
  useEffect(() => {
    const fresh = departments.filter((d) => !seen.current.has(d.id)).map((d) => d.id);
    if (fresh.length === 0) return;
    for (const id of fresh) seen.current.add(id);
    // A new department's parent opens too, so the new one is in sight.
    const parents = departments
      .filter((d) => fresh.includes(d.id) && d.parentId !== null)
      .map((d) => d.parentId as number);
    setExpanded((open) => [...new Set([...open, ...fresh, ...parents])]);
  }, [departments]);

  return (
    <Tree
      blockNode
      showLine
      expandedKeys={expanded}
      onExpand={(keys) => setExpanded(keys.map(Number))}
      selectedKeys={selectedId === null ? [] : [selectedId]}
      onSelect={(keys) => {
        const key = keys[0];
        if (key !== undefined) onSelect(Number(key));
        else if (deselectable) onSelect(null);
      }}
      treeData={treeData}
      titleRender={(node) => {
        const dept = byId.get(Number(node.key));
        return (
          <span data-testid="department-node">
            {String(node.title)}
            {dept && dept.memberCount > 0 && (
              <Typography.Text type="secondary" style={{ marginInlineStart: 6 }}>
                {dept.memberCount}
              </Typography.Text>
            )}
          </span>
        );
      }}
    />
  );
}
