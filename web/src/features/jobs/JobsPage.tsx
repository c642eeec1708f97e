import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Col, Progress, Row, Space, Statistic, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useJobsOverview } from './api';
import { QueuesTable } from './QueuesTable';
import { RegenerateDialog } from './RegenerateDialog';

/**
 * The jobs screen (issue 40 item 4; /manage/jobs, function code 10): the queues' counts, asked
 * again every few seconds while the page is shown, failed jobs with their error and file, retries,
 * pause and resume, the back-fills' progress, and previews made again for a file or a folder.
 */
export function JobsPage() {
  const { t } = useTranslation();
  const overview = useJobsOverview();
  const [regenerating, setRegenerating] = useState(false);
  const queues = overview.data?.queues ?? [];
  const total = (key: 'waiting' | 'active' | 'failed') => queues.reduce((sum, queue) => sum + queue[key], 0);

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="jobs-page">
      <Row gutter={[16, 16]}>
        {(['waiting', 'active', 'failed'] as const).map((key) => (
          <Col xs={12} md={4} key={key}>
            <Card size="small">
              <Statistic title={t(`jobs.${key}`)} value={total(key)} data-testid={`jobs-total-${key}`} />
            </Card>
          </Col>
        ))}
        {(overview.data?.backfills ?? []).map((backfill) => (
          // Three back-fills beside the three totals on a wide screen; two rows on a narrower one.
          <Col xs={24} md={12} xl={4} key={backfill.kind}>
            <Card size="small" data-testid={`backfill-${backfill.kind}`}>
              <Typography.Text type="secondary">{t(`jobs.backfill.${backfill.kind}`)}</Typography.Text>
              <Progress
                percent={backfill.total === 0 ? 100 : Math.floor((backfill.done / backfill.total) * 100)}
                aria-label={t(`jobs.backfill.${backfill.kind}`)}
              />
              <Typography.Text type="secondary">
                {t('jobs.backfillCount', { done: backfill.done, total: backfill.total })}
              </Typography.Text>
            </Card>
          </Col>
        ))}
      </Row>
      <Space wrap>
        <Button
          type="primary"
          icon={<ReloadOutlined />}
          onClick={() => setRegenerating(true)}
          data-testid="jobs-regenerate"
        >
          {t('jobs.regenerate')}
        </Button>
        <Typography.Text type="secondary">{t('jobs.refreshHint')}</Typography.Text>
      </Space>
      <QueuesTable queues={queues} loading={overview.isPending} />
      <RegenerateDialog open={regenerating} onClose={() => setRegenerating(false)} />
    </Space>
  );
}
