import { type DuplicateMember, type DuplicateReport, type Item, ItemType } from '@dam/contract';
import { Alert, Card, Col, Empty, Pagination, Row, Space, Spin, Statistic, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { formatSize } from '../../ui/format';
import { lazyDialog } from '../../ui/lazyPage';
import { FileViewer } from '../viewer/lazy';
import { ClusterCard } from './ClusterCard';
import { DuplicatesFilterBar } from './DuplicatesFilterBar';
import { useDuplicateReport } from './duplicatesApi';

const MoveDialog = lazyDialog(async () => (await import('../../ui/MoveDialog')).MoveDialog);

const PAGE_SIZE = 20;

/** The report's totals: clusters, files in them and the bytes the copies take. */
function DuplicatesTotals({ data }: { data: DuplicateReport | undefined }) {
  const { t } = useTranslation();
  return (
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
      <DuplicatesFilterBar
        deptId={deptId}
        onDept={(value) => choose(() => setDeptId(value))}
        folder={folder}
        onPickFolder={() => setPicking(true)}
        onClearFolder={() => choose(() => setFolder(null))}
        threshold={threshold}
        onSlide={setDraft}
        onThreshold={(value) => {
          setDraft(undefined);
          choose(() => setMaxDistance(value));
        }}
        request={request}
        exportDisabled={!data || data.totals.clusters === 0}
      />
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
      {!refusal && <DuplicatesTotals data={data} />}
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
