import { DeleteOutlined, FileImageOutlined, FolderOpenOutlined } from '@ant-design/icons';
import { type DuplicateCluster, type DuplicateMember, type Item, ItemType } from '@dam/contract';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Empty,
  Pagination,
  Popconfirm,
  Row,
  Slider,
  Space,
  Spin,
  Statistic,
  Tag,
  Tooltip,
  TreeSelect,
  Typography,
} from 'antd';
import { type CSSProperties, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { ExportButton } from '../../ui/ExportButton';
import { formatSize } from '../../ui/format';
import { lazyDialog } from '../../ui/lazyPage';
import { useCompletenessOptions } from '../completeness';
import { FileViewer } from '../viewer/lazy';
import { duplicateKeys, saveDuplicateExport, useDuplicateReport } from './duplicatesApi';

const MoveDialog = lazyDialog(async () => (await import('../../ui/MoveDialog')).MoveDialog);

const PAGE_SIZE = 20;
/** The slider's range: the stored pairs reach 11 bits (plan §7); 0 would be exact copies only. */
const THRESHOLD_MIN = 1;
const THRESHOLD_MAX = 11;

interface DeptOption {
  value: number;
  title: string;
  children: DeptOption[];
}

/** The filter's departments (the completeness report's choices: those within reach) as a tree. */
function deptTree(departments: ReadonlyArray<{ id: number; name: string; parentId: number | null }>) {
  const nodes = new Map<number, DeptOption>(
    departments.map((d) => [d.id, { value: d.id, title: d.name, children: [] }]),
  );
  const roots: DeptOption[] = [];
  for (const d of departments) {
    const node = nodes.get(d.id) as DeptOption;
    const parent = d.parentId === null ? undefined : nodes.get(d.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

const tileStyle: CSSProperties = {
  width: 196,
  padding: 8,
  border: '1px solid #f0f0f0',
  borderRadius: 8,
  background: '#fff',
  textAlign: 'start',
  cursor: 'pointer',
  font: 'inherit',
  display: 'flex',
  flexDirection: 'column',
  gap: 2,
};
const thumbStyle: CSSProperties = {
  width: '100%',
  height: 132,
  borderRadius: 4,
  background: '#fafafa',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  overflow: 'hidden',
  marginBottom: 4,
};
const lineStyle: CSSProperties = { fontSize: 12, display: 'block' };

function MemberTile({ member, onOpen }: { member: DuplicateMember; onOpen: () => void }) {
  const { t } = useTranslation();
  const pixels = member.width && member.height ? `${member.width} × ${member.height}` : '—';
  return (
    <button
      type="button"
      onClick={onOpen}
      style={{ ...tileStyle, borderColor: member.keep ? '#95de64' : '#f0f0f0' }}
      data-testid="duplicate-member"
      data-keep={member.keep}
      title={t('duplicates.open')}
    >
      <div style={thumbStyle}>
        {member.compactUrl ? (
          <img
            src={member.compactUrl}
            alt={member.name}
            loading="lazy"
            style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
          />
        ) : (
          <FileImageOutlined style={{ fontSize: 36, color: '#bfbfbf' }} />
        )}
      </div>
      <Space size={4} style={{ width: '100%' }}>
        {member.keep && (
          <Tag color="success" style={{ marginInlineEnd: 0 }} data-testid="duplicate-kept">
            {t('duplicates.kept')}
          </Tag>
        )}
        <Typography.Text
          strong
          ellipsis={{ tooltip: member.name }}
          style={{ maxWidth: member.keep ? 130 : 178 }}
        >
          {member.name}
        </Typography.Text>
      </Space>
      <Typography.Text type="secondary" ellipsis={{ tooltip: member.path }} style={lineStyle}>
        {member.path}
      </Typography.Text>
      <Typography.Text type="secondary" ellipsis style={lineStyle}>
        {t('duplicates.department')}: {member.deptName || '—'}
      </Typography.Text>
      <Typography.Text type="secondary" ellipsis style={lineStyle}>
        {t('duplicates.owner')}: {member.userName}
      </Typography.Text>
      <Typography.Text style={lineStyle}>
        {pixels} · {formatSize(member.fileSize)}
      </Typography.Text>
      {!member.keep && member.distance !== null && (
        <Typography.Text type="secondary" style={lineStyle}>
          {t('duplicates.distance', { bits: member.distance })}
        </Typography.Text>
      )}
    </button>
  );
}

function ClusterCard({
  cluster,
  onOpen,
}: {
  cluster: DuplicateCluster;
  onOpen: (members: DuplicateMember[], id: number) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState(false);
  // Only copies compared with the kept image itself: one joined through a chain (A~B~C) may differ.
  const copies = cluster.members.filter((member) => !member.keep && member.distance !== null);
  // The ordinary deletion, one transaction: a copy the administrator may not change refuses all.
  const removeCopies = async () => {
    setRemoving(true);
    try {
      await call(endpoints.deleteItems, {
        body: { idList: copies.map((member) => member.id), folderIdList: [] },
      });
      void message.success(t('duplicates.copiesRemoved', { count: copies.length }));
      await queryClient.invalidateQueries({ queryKey: duplicateKeys.all });
    } catch {
      // The client has shown the server's reason.
    } finally {
      setRemoving(false);
    }
  };
  return (
    <Card
      size="small"
      title={t('duplicates.cluster', { count: cluster.members.length })}
      extra={
        <Space size={12}>
          <Typography.Text type="warning">
            {t('duplicates.freeable', { size: formatSize(cluster.bytesFreeable) })}
          </Typography.Text>
          {copies.length > 0 && (
            <Popconfirm
              title={t('duplicates.removeCopiesConfirm', { count: copies.length })}
              okText={t('duplicates.removeCopies')}
              okButtonProps={{ danger: true }}
              onConfirm={removeCopies}
            >
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                loading={removing}
                data-testid="duplicate-remove-copies"
              >
                {t('duplicates.removeCopies')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      }
      data-testid="duplicate-cluster"
    >
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12 }}>
        {cluster.members.map((member) => (
          <MemberTile key={member.id} member={member} onOpen={() => onOpen(cluster.members, member.id)} />
        ))}
      </div>
    </Card>
  );
}

/**
 * /manage/duplicates (issue 17, plan §7; function code 6): clusters of near-duplicate images among
 * the files the administrator may see, in a department and optionally a folder, at a threshold up
 * to 11 bits; the member with the most pixels is kept, the others are what could be freed. Largest
 * savings first; exported to .xlsx.
 */
export function DuplicatesPage() {
  const { t } = useTranslation();
  const [deptId, setDeptId] = useState<number | undefined>();
  const [folder, setFolder] = useState<{ id: number; path: string } | null>(null);
  const [picking, setPicking] = useState(false);
  /** The threshold asked for; undefined: the server's own (SIMILAR_MAX_DISTANCE). */
  const [maxDistance, setMaxDistance] = useState<number | undefined>();
  /** Where the slider is while it is being moved (asked for once it is let go). */
  const [draft, setDraft] = useState<number | undefined>();
  const [pageNo, setPageNo] = useState(1);
  const [viewing, setViewing] = useState<{ members: DuplicateMember[]; id: number } | null>(null);
  const options = useCompletenessOptions();
  const departments = useMemo(() => deptTree(options.data?.departments ?? []), [options.data]);

  const request = useMemo(
    () => ({
      ...(deptId !== undefined ? { deptId } : {}),
      ...(folder ? { folderDataId: folder.id } : {}),
      ...(maxDistance !== undefined ? { maxDistance } : {}),
    }),
    [deptId, folder, maxDistance],
  );
  const report = useDuplicateReport(request, pageNo, PAGE_SIZE);
  const data = report.isError ? undefined : report.data;
  const threshold = draft ?? maxDistance ?? report.data?.maxDistance;
  const refusal = report.isError
    ? report.error instanceof ApiError
      ? report.error.desc
      : t('common.loadFailed')
    : null;

  const choose = (apply: () => void) => {
    apply();
    setPageNo(1);
  };
  const progress = data?.progress;
  const percent = progress && progress.total > 0 ? Math.floor((progress.done / progress.total) * 100) : 0;
  const total = data
    ? Math.max(data.totals.clusters, (pageNo - 1) * PAGE_SIZE + data.list.length + (data.hasMore ? 1 : 0))
    : 0;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="duplicates-page">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('duplicates.intro')}
      </Typography.Paragraph>
      <Space wrap align="center">
        <TreeSelect
          allowClear
          showSearch
          treeDefaultExpandAll
          treeNodeFilterProp="title"
          value={deptId}
          onChange={(value?: number) => choose(() => setDeptId(value ?? undefined))}
          treeData={departments}
          placeholder={t('duplicates.allDepartments')}
          style={{ width: 220 }}
          aria-label={t('duplicates.allDepartments')}
          data-testid="duplicates-dept"
        />
        <Space size={4}>
          <Button
            icon={<FolderOpenOutlined />}
            onClick={() => setPicking(true)}
            data-testid="duplicates-folder"
          >
            {folder ? folder.path : t('duplicates.anyFolder')}
          </Button>
          {folder && (
            <Button
              type="link"
              onClick={() => choose(() => setFolder(null))}
              data-testid="duplicates-folder-clear"
            >
              {t('duplicates.clearFolder')}
            </Button>
          )}
        </Space>
        <Space size={8} align="center">
          <Tooltip title={t('duplicates.thresholdHint')}>
            <Typography.Text>{t('duplicates.threshold')}</Typography.Text>
          </Tooltip>
          <Slider
            min={THRESHOLD_MIN}
            max={THRESHOLD_MAX}
            step={1}
            value={threshold}
            disabled={threshold === undefined}
            onChange={setDraft}
            onChangeComplete={(value) => {
              setDraft(undefined);
              choose(() => setMaxDistance(value));
            }}
            marks={{ [THRESHOLD_MIN]: String(THRESHOLD_MIN), [THRESHOLD_MAX]: String(THRESHOLD_MAX) }}
            style={{ width: 200, marginBlock: 0 }}
            ariaLabelForHandle={t('duplicates.threshold')}
            data-testid="duplicates-threshold"
          />
          <Typography.Text type="secondary" data-testid="duplicates-threshold-value">
            {threshold === undefined ? '' : t('duplicates.bits', { bits: threshold })}
          </Typography.Text>
        </Space>
        <ExportButton
          save={() => saveDuplicateExport(request)}
          disabled={!data || data.totals.clusters === 0}
          label={t('duplicates.export')}
          hint={t('duplicates.exportHint')}
          testId="duplicates-export"
        />
      </Space>

      {progress && (
        <Alert
          type="info"
          showIcon
          title={t('duplicates.progress', { percent })}
          description={t('duplicates.progressHint', { done: progress.done, total: progress.total })}
          data-testid="duplicates-progress"
        />
      )}
      {refusal && <Alert type="warning" showIcon title={refusal} data-testid="duplicates-refusal" />}

      {!refusal && (
        <Row gutter={[12, 12]} data-testid="duplicates-totals">
          {[
            { key: 'clusters', title: t('duplicates.clusters'), value: data?.totals.clusters },
            { key: 'files', title: t('duplicates.files'), value: data?.totals.items },
            {
              key: 'bytes',
              title: t('duplicates.bytesFreeable'),
              value: data ? formatSize(data.totals.bytesFreeable) : undefined,
            },
          ].map((total) => (
            <Col key={total.key} xs={24} sm={8}>
              <Card size="small">
                <Statistic
                  title={total.title}
                  value={total.value ?? '–'}
                  data-testid={`duplicates-total-${total.key}`}
                />
              </Card>
            </Col>
          ))}
        </Row>
      )}

      {report.isPending && !refusal && <Spin />}
      {data && data.list.length === 0 && (
        <Empty description={t('duplicates.empty')} data-testid="duplicates-empty" />
      )}
      {data && data.list.length > 0 && (
        <Spin spinning={report.isFetching}>
          <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="duplicates-list">
            {data.list.map((cluster) => (
              <ClusterCard
                key={cluster.clusterId}
                cluster={cluster}
                onOpen={(members, id) => setViewing({ members, id })}
              />
            ))}
          </Space>
        </Spin>
      )}
      {data && total > PAGE_SIZE && (
        <Pagination
          current={pageNo}
          pageSize={PAGE_SIZE}
          total={total}
          showSizeChanger={false}
          showTotal={(count) => t('duplicates.total', { count })}
          onChange={setPageNo}
          style={{ textAlign: 'end' }}
          data-testid="duplicates-pagination"
        />
      )}

      <MoveDialog
        open={picking}
        title={t('duplicates.chooseFolder')}
        allowCreate={false}
        onCancel={() => setPicking(false)}
        onConfirm={async (id, path) => {
          choose(() => setFolder(id === 'all' ? null : { id, path }));
          setPicking(false);
        }}
      />
      {viewing && (
        <FileViewer
          // The viewer steps through the cluster's members; it needs only their ids and types.
          items={viewing.members.map((m) => ({ id: m.id, type: ItemType.image })) as unknown as Item[]}
          startId={viewing.id}
          onClose={() => setViewing(null)}
        />
      )}
    </Space>
  );
}
