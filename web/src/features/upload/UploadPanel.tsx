import {
  CaretRightOutlined,
  CheckCircleFilled,
  CloseOutlined,
  DownOutlined,
  PauseOutlined,
  RedoOutlined,
  StopOutlined,
  UpOutlined,
} from '@ant-design/icons';
import { Button, List, Progress, Space, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatSize } from '../../ui/format';
import { TaskStatus, type UploadTask } from './engine/types';
import { remaining } from './remaining';
import styles from './UploadPanel.module.css';
import { useUploadManager, useUploadState } from './UploadProvider';
import { useCancelUploads } from './useCancelUploads';
import { type SimilarAfterMatch, useSimilarAfter } from './useSimilarAfter';
import { sentOf, useUploadRate } from './useUploadRate';

/** Drawn only when a finished upload looks like files already in the archive (issue 17). */
const SimilarAfterNote = lazy(() => import('./SimilarAfterNote'));

/**
 * The upload tray on every signed-in page (issue 11 item 4): overall and per-file progress, speed
 * and time left, pause / resume / cancel, failures with their reason and a retry, and the way to
 * the records. It shows while this page uploads and until closed once everything is done.
 */
export function UploadPanel() {
  const { t } = useTranslation();
  const cancel = useCancelUploads();
  const state = useUploadState();
  const [collapsed, setCollapsed] = useState(false);
  const similar = useSimilarAfter(state.finished);

  const active = state.tasks;
  const finishedBytes = state.finished.reduce((sum, f) => sum + f.fileSize, 0);
  const totalBytes = active.reduce((sum, task) => sum + task.fileSize, 0) + finishedBytes;
  const sentBytes = active.reduce((sum, task) => sum + sentOf(task), 0) + finishedBytes;
  const uploading = active.some((task) => task.status === TaskStatus.uploading);

  const meter = useUploadRate(uploading);

  if (active.length === 0 && state.finished.length === 0) return null;

  const failed = active.filter((task) => task.status === TaskStatus.failed);
  const percent = totalBytes === 0 ? 100 : Math.floor((sentBytes / totalBytes) * 100);
  const rate = uploading ? meter.rate() : null;
  const secondsLeft = uploading ? meter.secondsLeft(totalBytes - sentBytes) : null;
  const title =
    active.length > 0
      ? t('upload.panel.uploading', { count: active.length })
      : t('upload.panel.done', { count: state.finished.length });

  const rows: Array<{ key: string; task?: UploadTask; id?: number; name: string; size: number }> = [
    ...active.map((task) => ({ key: `t${task.id}`, task, name: task.fileName, size: task.fileSize })),
    ...[...state.finished]
      .reverse()
      .map((f) => ({ key: `f${f.id}`, id: f.id, name: f.fileName, size: f.fileSize })),
  ];

  return (
    <section className={styles.panel} aria-label={title} data-testid="upload-panel">
      <UploadPanelHeader
        title={title}
        collapsed={collapsed}
        onToggle={() => setCollapsed(!collapsed)}
        closable={active.length === 0}
      />
      <div className={styles.summary}>
        <Progress
          percent={percent}
          size="small"
          aria-label={title}
          status={failed.length > 0 ? 'exception' : active.length === 0 ? 'success' : 'active'}
          data-testid="upload-panel-progress"
          data-percent={percent}
        />
        <Typography.Text type="secondary" className={styles.facts} data-testid="upload-panel-facts">
          {formatSize(sentBytes)} / {formatSize(totalBytes)}
          {rate !== null && ` · ${formatSize(rate)}/s`}
          {secondsLeft !== null && ` · ${remaining(t, secondsLeft)}`}
          {failed.length > 0 && ` · ${t('upload.panel.failedCount', { count: failed.length })}`}
        </Typography.Text>
      </div>
      {!collapsed && (
        <>
          <List
            size="small"
            className={styles.list}
            dataSource={rows}
            renderItem={(row) => (
              <List.Item className={styles.row} data-testid="upload-panel-row" data-name={row.name}>
                <div className={styles.rowMain}>
                  <div className={styles.name} title={row.name}>
                    {row.name}
                  </div>
                  {row.task ? (
                    <TaskLine task={row.task} />
                  ) : (
                    <Typography.Text type="success" className={styles.state}>
                      <CheckCircleFilled /> {t('upload.panel.finished')} · {formatSize(row.size)}
                    </Typography.Text>
                  )}
                  {row.id !== undefined && similar.notDone.has(row.id) && (
                    <Typography.Text
                      type="secondary"
                      className={styles.note}
                      data-testid="upload-panel-similar-not-done"
                    >
                      {t('similar.after.notDone')}
                    </Typography.Text>
                  )}
                  {row.id !== undefined && similar.matches.has(row.id) && (
                    <Suspense fallback={null}>
                      <SimilarAfterNote
                        uploadId={row.id}
                        fileName={row.name}
                        match={similar.matches.get(row.id) as SimilarAfterMatch}
                        onDismiss={() => similar.dismiss(row.id as number)}
                      />
                    </Suspense>
                  )}
                </div>
                {row.task && (
                  <TaskActions task={row.task} onCancel={() => cancel([(row.task as UploadTask).id])} />
                )}
              </List.Item>
            )}
          />
          <UploadPanelFooter active={active} uploading={uploading} onCancel={cancel} />
        </>
      )}
    </section>
  );
}

/** The tray's title, and its buttons to fold it and, once everything is done, to close it. */
function UploadPanelHeader({
  title,
  collapsed,
  onToggle,
  closable,
}: {
  title: string;
  collapsed: boolean;
  onToggle: () => void;
  closable: boolean;
}) {
  const { t } = useTranslation();
  const manager = useUploadManager();
  return (
    <header className={styles.header}>
      <Typography.Text strong data-testid="upload-panel-title">
        {title}
      </Typography.Text>
      <Space size={0}>
        <Tooltip title={collapsed ? t('upload.panel.expand') : t('upload.panel.collapse')}>
          <Button
            type="text"
            size="small"
            icon={collapsed ? <UpOutlined /> : <DownOutlined />}
            onClick={onToggle}
            aria-label={collapsed ? t('upload.panel.expand') : t('upload.panel.collapse')}
            data-testid="upload-panel-toggle"
          />
        </Tooltip>
        {closable && (
          <Tooltip title={t('upload.panel.close')}>
            <Button
              type="text"
              size="small"
              icon={<CloseOutlined />}
              onClick={() => manager.clearFinished()}
              aria-label={t('upload.panel.close')}
              data-testid="upload-panel-close"
            />
          </Tooltip>
        )}
      </Space>
    </header>
  );
}

/** Pause, continue or cancel every upload at once, and the way to the records. */
function UploadPanelFooter({
  active,
  uploading,
  onCancel,
}: {
  active: UploadTask[];
  uploading: boolean;
  onCancel: (ids: number[]) => void;
}) {
  const { t } = useTranslation();
  const manager = useUploadManager();
  return (
    <footer className={styles.footer}>
      <Space size={4}>
        {uploading && (
          <Button size="small" onClick={() => manager.pauseAll()} data-testid="upload-panel-pause-all">
            {t('upload.pauseAll')}
          </Button>
        )}
        {active.some((task) => task.status === TaskStatus.paused) && (
          <Button size="small" onClick={() => manager.resumeAll()} data-testid="upload-panel-resume-all">
            {t('upload.continueAll')}
          </Button>
        )}
        {active.length > 0 && (
          <Button size="small" danger onClick={() => onCancel(active.map((task) => task.id))}>
            {t('upload.cancelAll')}
          </Button>
        )}
      </Space>
      <Link to="/upload-record/current">{t('upload.records')}</Link>
    </footer>
  );
}

function TaskLine({ task }: { task: UploadTask }) {
  const { t } = useTranslation();
  const words: Record<number, string> = {
    [TaskStatus.waiting]: t('upload.statusWaiting'),
    [TaskStatus.uploading]: `${task.process}%`,
    [TaskStatus.paused]: t('upload.statusPaused'),
    [TaskStatus.failed]:
      task.error === 'task timeout' ? t('upload.panel.timedOut') : t('upload.panel.failedReason'),
  };
  return (
    <>
      <Progress
        percent={task.process}
        size="small"
        showInfo={false}
        aria-label={words[task.status]}
        status={
          task.status === TaskStatus.failed
            ? 'exception'
            : task.status === TaskStatus.uploading
              ? 'active'
              : 'normal'
        }
      />
      <Typography.Text
        type={task.status === TaskStatus.failed ? 'danger' : 'secondary'}
        className={styles.state}
        data-testid="upload-panel-state"
      >
        {words[task.status] ?? ''} · {formatSize(task.fileSize)}
      </Typography.Text>
    </>
  );
}

function TaskActions({ task, onCancel }: { task: UploadTask; onCancel: () => void }) {
  const { t } = useTranslation();
  const manager = useUploadManager();
  return (
    <Space size={0}>
      {task.status === TaskStatus.uploading && (
        <Tooltip title={t('upload.pause')}>
          <Button
            type="text"
            size="small"
            icon={<PauseOutlined />}
            onClick={() => manager.pause(task.id)}
            aria-label={t('upload.pause')}
            data-testid="upload-panel-pause"
          />
        </Tooltip>
      )}
      {task.status === TaskStatus.paused && (
        <Tooltip title={t('upload.continue')}>
          <Button
            type="text"
            size="small"
            icon={<CaretRightOutlined />}
            onClick={() => manager.resume(task.id)}
            aria-label={t('upload.continue')}
            data-testid="upload-panel-resume"
          />
        </Tooltip>
      )}
      {task.status === TaskStatus.failed && (
        <Tooltip title={t('upload.panel.retry')}>
          <Button
            type="text"
            size="small"
            icon={<RedoOutlined />}
            onClick={() => manager.resume(task.id)}
            aria-label={t('upload.panel.retry')}
            data-testid="upload-panel-retry"
          />
        </Tooltip>
      )}
      <Tooltip title={t('upload.cancel')}>
        <Button
          type="text"
          size="small"
          danger
          icon={<StopOutlined />}
          onClick={onCancel}
          aria-label={t('upload.cancel')}
          data-testid="upload-panel-cancel"
        />
      </Tooltip>
    </Space>
  );
}
