import { WarningOutlined } from '@ant-design/icons';
import { COMPOSE_ARTICLES_MAX, type MakerPlan, parseArtNums, type TemplateSummary } from '@dam/contract';
import { Alert, Button, Card, Empty, Input, Space, Spin, Tabs, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { showApiError } from '../../api/showApiError';
import { PlanTable } from './compose/PlanTable';
import { RenderDialog } from './compose/RenderDialog';
import styles from './composite.module.css';
import { makerPlan, useTemplateDetail, useTemplateList } from './compositeApi';
import { JobProgress, MyResults } from './JobProgress';
import type { Overrides } from './overrides';
import { PagePreview } from './PagePreview';

/** The file ids handed over by the file browser's selection bar (`?items=1,2,3`). */
export function selectedItemsOf(search: URLSearchParams): number[] {
  return (search.get('items') ?? '')
    .split(',')
    .map((part) => Number(part))
    .filter((id) => Number.isSafeInteger(id) && id > 0);
}

/**
 * /composite (any signed-in user): pick a template, name the articles (or bring a selection from the
 * file browser), check which can be rendered, swap slots by hand, render into a folder, follow the
 * job; "My results" lists earlier jobs. `?job=` shows one job's progress.
 */
export function ComposePage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const jobParam = Number(search.get('job'));
  const jobId = Number.isSafeInteger(jobParam) && jobParam > 0 ? jobParam : null;
  const tab = search.get('tab') === 'results' ? 'results' : 'compose';
  const openJob = (id: number | null) =>
    setSearch((params) => {
      const next = new URLSearchParams(params);
      if (id === null) next.delete('job');
      else next.set('job', String(id));
      next.delete('tab');
      return next;
    });

  return (
    <div data-testid="compose-page">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('nav.composite')}
      </Typography.Title>
      <Tabs
        activeKey={jobId !== null ? 'compose' : tab}
        onChange={(key) =>
          setSearch((params) => {
            const next = new URLSearchParams(params);
            next.delete('job');
            if (key === 'results') next.set('tab', 'results');
            else next.delete('tab');
            return next;
          })
        }
        items={[
          {
            key: 'compose',
            label: t('composite.compose.tab'),
            children:
              jobId !== null ? (
                <JobProgress jobId={jobId} onOpenJob={openJob} onBack={() => openJob(null)} />
              ) : (
                <ComposeForm onStarted={openJob} />
              ),
          },
          { key: 'results', label: t('composite.results.tab'), children: <MyResults onOpen={openJob} /> },
        ]}
      />
    </div>
  );
}

function TemplateCard({
  summary,
  selected,
  onSelect,
}: {
  summary: TemplateSummary;
  selected: boolean;
  onSelect: () => void;
}) {
  const { t } = useTranslation();
  const detail = useTemplateDetail(summary.id);
  return (
    <Card
      hoverable
      size="small"
      className={selected ? styles.cardSelected : undefined}
      onClick={onSelect}
      data-testid="template-card"
      cover={
        <div className={styles.cardMini}>
          {detail.data ? (
            <PagePreview
              spec={detail.data.spec}
              width={176}
              bare
              testId="template-card-preview"
              assetUrls={Object.fromEntries(detail.data.assets.map((a) => [a.id, a.url]))}
              inputs={{ assets: Object.fromEntries(detail.data.assets.map((a) => [a.id, a])) }}
            />
          ) : (
            <Spin />
          )}
        </div>
      }
    >
      <Card.Meta
        // Names up to 50 characters: they wrap rather than lose their distinguishing end.
        title={<span className={styles.cardTitle}>{summary.name}</span>}
        description={
          <Space size={4} wrap>
            <span>
              v{summary.currentVersion} · {summary.width} px
            </span>
            {summary.missingFonts.length > 0 && (
              <Tooltip
                title={t('composite.templates.missingFonts', { fonts: summary.missingFonts.join(', ') })}
              >
                <WarningOutlined style={{ color: '#faad14' }} />
              </Tooltip>
            )}
          </Space>
        }
      />
    </Card>
  );
}

function ComposeForm({ onStarted }: { onStarted: (jobId: number) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const items = useMemo(() => selectedItemsOf(search), [search]);
  const templates = useTemplateList(false);
  const [templateId, setTemplateId] = useState<number | null>(null);
  const chosenId = templateId ?? templates.data?.[0]?.id ?? null;
  const detail = useTemplateDetail(chosenId);
  const [text, setText] = useState('');
  const artNums = useMemo(() => parseArtNums(text), [text]);
  const [plan, setPlan] = useState<MakerPlan | null>(null);
  const [checking, setChecking] = useState(false);
  const [overrides, setOverrides] = useState<Overrides>({});
  const [rendering, setRendering] = useState(false);

  const check = async () => {
    if (chosenId === null) return;
    setChecking(true);
    try {
      setPlan(
        await makerPlan({
          templateId: chosenId,
          ...(detail.data ? { version: detail.data.version } : {}),
          ...(items.length > 0 && artNums.length === 0 ? { folderDataIdList: items } : { artNums }),
        }),
      );
      setOverrides({});
    } catch (error) {
      showApiError(error);
    } finally {
      setChecking(false);
    }
  };

  const tooMany = artNums.length > COMPOSE_ARTICLES_MAX;
  const canCheck = chosenId !== null && !tooMany && (artNums.length > 0 || items.length > 0);

  if (templates.isPending) return <Spin />;
  if ((templates.data ?? []).length === 0)
    return <Empty description={t('composite.compose.noTemplates')} data-testid="compose-no-templates" />;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <div>
        <Typography.Text strong>{t('composite.compose.template')}</Typography.Text>
        <div className={styles.cards} style={{ marginTop: 8 }}>
          {(templates.data ?? []).map((summary) => (
            <TemplateCard
              key={summary.id}
              summary={summary}
              selected={summary.id === chosenId}
              onSelect={() => {
                setTemplateId(summary.id);
                setPlan(null);
              }}
            />
          ))}
        </div>
      </div>
      <div>
        <Typography.Text strong>{t('composite.compose.artNums')}</Typography.Text>
        {items.length > 0 && (
          <Alert
            style={{ margin: '8px 0' }}
            type="info"
            showIcon
            title={t('composite.compose.fromSelection', { count: items.length })}
            action={
              <Button
                size="small"
                onClick={() =>
                  setSearch((params) => {
                    const next = new URLSearchParams(params);
                    next.delete('items');
                    return next;
                  })
                }
              >
                {t('composite.compose.clearSelection')}
              </Button>
            }
            data-testid="compose-from-selection"
          />
        )}
        <Input.TextArea
          value={text}
          rows={4}
          placeholder={t('composite.compose.artNumsPlaceholder')}
          onChange={(e) => {
            setText(e.target.value);
            setPlan(null);
          }}
          status={tooMany ? 'error' : undefined}
          data-testid="compose-art-nums"
        />
        <Space style={{ marginTop: 8 }}>
          <Typography.Text type={tooMany ? 'danger' : 'secondary'} data-testid="compose-count">
            {t('composite.compose.count', { count: artNums.length, max: COMPOSE_ARTICLES_MAX })}
          </Typography.Text>
          <Button
            type="primary"
            disabled={!canCheck}
            loading={checking}
            onClick={() => void check()}
            data-testid="compose-check"
          >
            {t('composite.compose.check')}
          </Button>
        </Space>
      </div>
      {plan && detail.data && (
        <PlanTable
          plan={plan}
          detail={detail.data}
          overrides={overrides}
          onOverrides={setOverrides}
          onRender={() => setRendering(true)}
        />
      )}
      {plan && detail.data && rendering && (
        <RenderDialog
          detail={detail.data}
          plan={plan}
          overrides={overrides}
          onClose={() => setRendering(false)}
          onStarted={(jobId) => {
            setRendering(false);
            onStarted(jobId);
          }}
        />
      )}
    </Space>
  );
}
