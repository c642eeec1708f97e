import { Button, Space, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useUploadHistory } from './api';
import { TaskStatus } from './engine/types';
import { InterruptedUploads } from './InterruptedUploads';
import { useUploadManager, useUploadState } from './UploadProvider';
import { HistoryTable, TaskTable } from './UploadRecordTables';
import { useCancelUploads } from './useCancelUploads';

const TABS = ['current', 'await', 'history'] as const;
type Tab = (typeof TABS)[number];

/** SPEC §2/§4 upload records: uploading, waiting, uploaded; continue, pause all, cancel all, re-upload. */
export function UploadRecordsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tab = 'current' } = useParams();
  const manager = useUploadManager();
  const state = useUploadState();
  const history = useUploadHistory();
  const active = TABS.includes(tab as Tab) ? (tab as Tab) : 'current';

  const current = state.tasks.filter((task) => task.status !== TaskStatus.waiting);
  const waiting = state.tasks.filter((task) => task.status === TaskStatus.waiting);

  const cancel = useCancelUploads();

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="upload-records">
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('upload.records')}
        </Typography.Title>
        <Space>
          <Button
            onClick={() => manager.resumeAll()}
            disabled={!state.tasks.some((x) => x.status === TaskStatus.paused)}
          >
            {t('upload.continueAll')}
          </Button>
          <Button onClick={() => manager.pauseAll()} disabled={state.uploading === 0}>
            {t('upload.pauseAll')}
          </Button>
          <Button
            danger
            onClick={() => cancel(state.tasks.map((x) => x.id))}
            disabled={state.tasks.length === 0}
          >
            {t('upload.cancelAll')}
          </Button>
        </Space>
      </Space>
      <InterruptedUploads />
      <Tabs
        activeKey={active}
        onChange={(key) => navigate(`/upload-record/${key}`)}
        items={[
          {
            key: 'current',
            label: `${t('upload.tabCurrent')} (${current.length})`,
            children: <TaskTable tasks={current} empty={t('upload.noCurrent')} onCancel={cancel} />,
          },
          {
            key: 'await',
            label: `${t('upload.tabAwait')} (${waiting.length})`,
            children: <TaskTable tasks={waiting} empty={t('upload.noAwait')} onCancel={cancel} />,
          },
          {
            key: 'history',
            label: t('upload.tabHistory'),
            children: <HistoryTable history={history} />,
          },
        ]}
      />
    </Space>
  );
}
