import { CheckCircleFilled, CloseCircleFilled, FolderOpenOutlined, WarningOutlined } from '@ant-design/icons';
import {
  COMPOSE_ARTICLES_MAX,
  FunctionCode,
  type ImageSize,
  type MakerPlan,
  parseArtNums,
  type TemplateDetail,
  type TemplateSummary,
} from '@dam/contract';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Drawer,
  Empty,
  Input,
  Modal,
  Space,
  Spin,
  Table,
  type TableColumnsType,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { showApiError } from '../../api/showApiError';
import { useTagDimensions } from '../../api/tags';
import { holdsCodes } from '../../auth/guard';
import { functionCodesOf, useCurrentUser } from '../../auth/useCurrentUser';
import { lazyDialog } from '../../ui/lazyPage';
import { testId } from '../../ui/testId';
import { AddTagDialog } from '../tagging/lazy';
import styles from './composite.module.css';
import {
  makerPlan,
  startMakerImage,
  useMakerArticle,
  useTemplateDetail,
  useTemplateList,
} from './compositeApi';
import { JobProgress, MyResults } from './JobProgress';
import { effectiveChoices, type Overrides, overrideList, setOverride } from './overrides';
import { PagePreview } from './PagePreview';
import { useSlotNaming } from './slotNaming';

const MoveDialog = lazyDialog(async () => (await import('../../ui/MoveDialog')).MoveDialog);

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

function PlanTable({
  plan,
  detail,
  overrides,
  onOverrides,
  onRender,
}: {
  plan: MakerPlan;
  detail: TemplateDetail;
  overrides: Overrides;
  onOverrides: (overrides: Overrides) => void;
  onRender: () => void;
}) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const readsCompleteness = holdsCodes(functionCodesOf(user.data), [FunctionCode.data]);
  const complete = plan.articles.filter((a) => a.complete).length;
  const columns: TableColumnsType<MakerPlan['articles'][number]> = [
    { title: t('composite.compose.artNum'), dataIndex: 'artNum', width: 180 },
    {
      title: t('composite.compose.name'),
      dataIndex: 'skuName',
      render: (name: string | null) => name ?? '—',
    },
    {
      title: t('composite.compose.state'),
      render: (_, row) =>
        row.complete ? (
          <Space>
            <CheckCircleFilled style={{ color: '#52c41a' }} data-testid="plan-complete" />
            {overrides[row.artNum] && (
              <Tag color="orange">
                {t('composite.compose.swapped', { count: Object.keys(overrides[row.artNum] ?? {}).length })}
              </Tag>
            )}
          </Space>
        ) : (
          <Space wrap size={4}>
            <CloseCircleFilled style={{ color: '#ff4d4f' }} data-testid="plan-missing" />
            {row.missing.map((slot) => (
              <Tag key={slot.slot} color="red">
                {readsCompleteness ? (
                  <Link to={`/manage/completeness?artNum=${encodeURIComponent(row.artNum)}`}>
                    {slot.viewName}
                  </Link>
                ) : (
                  slot.viewName
                )}
              </Tag>
            ))}
          </Space>
        ),
    },
  ];
  return (
    <Card
      size="small"
      title={t('composite.compose.planTitle', { complete, total: plan.articles.length })}
      extra={
        <Button
          type="primary"
          disabled={plan.articles.length === 0}
          onClick={onRender}
          data-testid="compose-render"
        >
          {t('composite.compose.render')}
        </Button>
      }
    >
      {plan.unmatched.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 8 }}
          title={t('composite.compose.unmatched', {
            count: plan.unmatched.length,
            list: plan.unmatched.slice(0, 20).join(', '),
          })}
          data-testid="compose-unmatched"
        />
      )}
      <Table
        rowKey="artNum"
        size="small"
        columns={columns}
        dataSource={plan.articles}
        pagination={plan.articles.length > 20 ? { pageSize: 20 } : false}
        expandable={{
          expandedRowRender: (row) => (
            <ArticleSwap
              detail={detail}
              artNum={row.artNum}
              mine={overrides[row.artNum]}
              onChoose={(slot, itemId, ruleChoice) =>
                onOverrides(setOverride(overrides, row.artNum, slot, itemId, ruleChoice))
              }
            />
          ),
        }}
        data-testid="compose-plan"
      />
    </Card>
  );
}

/** One article's page as it will be filled; a click on a slot offers its other files. */
function ArticleSwap({
  detail,
  artNum,
  mine,
  onChoose,
}: {
  detail: TemplateDetail;
  artNum: string;
  mine: Readonly<Record<string, number>> | undefined;
  onChoose: (slot: string, itemId: number | null, ruleChoice: number | null) => void;
}) {
  const { t } = useTranslation();
  const article = useMakerArticle(detail.template.id, detail.version, artNum);
  const naming = useSlotNaming(detail.spec);
  const [slot, setSlot] = useState<string | null>(null);
  const view = useMemo(() => {
    if (!article.data) return null;
    const byId = new Map(article.data.candidates.map((c) => [c.itemId, c]));
    const choices = effectiveChoices(article.data, mine);
    const images: Record<string, string | null> = {};
    const sizes: Record<string, ImageSize | null> = {};
    for (const [key, itemId] of Object.entries(choices)) {
      const candidate = itemId === null ? undefined : byId.get(itemId);
      images[key] = candidate?.thumbUrl ?? candidate?.previewUrl ?? null;
      sizes[key] =
        candidate?.width && candidate.height ? { width: candidate.width, height: candidate.height } : null;
    }
    const assets = Object.fromEntries(detail.assets.map((a) => [a.id, a]));
    return { images, inputs: { slots: sizes, assets }, choices };
  }, [article.data, mine, detail.assets]);
  if (article.isPending) return <Spin />;
  if (!article.data || !view) return null;
  const current = slot ? article.data.slots.find((s) => s.slot === slot) : undefined;
  const names = new Map(article.data.candidates.map((c) => [c.itemId, c.name]));
  return (
    <div className={styles.swap} data-testid="article-swap">
      <div style={{ width: 400, flex: 'none' }}>
        <Typography.Paragraph type="secondary">{t('composite.compose.swapHint')}</Typography.Paragraph>
        <div style={{ maxHeight: 460, overflow: 'auto' }}>
          <PagePreview
            spec={detail.spec}
            inputs={view.inputs}
            slotImages={view.images}
            assetUrls={Object.fromEntries(detail.assets.map((a) => [a.id, a.url]))}
            fields={article.data.fields}
            width={380}
            onSlotClick={setSlot}
            marked={new Set(Object.keys(mine ?? {}))}
            naming={naming}
            testId="article-preview"
          />
        </div>
      </div>
      <div style={{ flex: 1, minWidth: 240 }}>
        <Typography.Text strong>{t('composite.compose.slotList')}</Typography.Text>
        <div className={styles.slotList} data-testid="article-slots">
          {article.data.slots.map((each) => {
            const itemId = view.choices[each.slot];
            const file = itemId === null || itemId === undefined ? undefined : names.get(itemId);
            return (
              <div
                key={each.slot}
                className={styles.slotRow}
                data-testid="article-slot"
                data-slot={each.slot}
              >
                <span className={styles.slotLabel} title={each.label}>
                  {each.label || each.slot}
                </span>
                {file ? (
                  <Typography.Text ellipsis={{ tooltip: file }} style={{ flex: 1, minWidth: 0 }}>
                    {file}
                  </Typography.Text>
                ) : (
                  <Typography.Text type={each.required ? 'danger' : 'secondary'} style={{ flex: 1 }}>
                    {t('composite.compose.noFile')}
                  </Typography.Text>
                )}
                {mine?.[each.slot] !== undefined && <Tag color="orange">{t('composite.compose.byHand')}</Tag>}
                <Button size="small" onClick={() => setSlot(each.slot)} data-testid="article-slot-swap">
                  {t('composite.compose.swap')}
                </Button>
              </div>
            );
          })}
        </div>
      </div>
      <Drawer
        open={slot !== null}
        onClose={() => setSlot(null)}
        size={560}
        title={t('composite.compose.swapTitle', { slot: current?.label ?? slot ?? '', artNum })}
        destroyOnHidden
        extra={
          current && mine?.[current.slot] !== undefined ? (
            <Button onClick={() => onChoose(current.slot, null, current.chosen)}>
              {t('composite.compose.swapReset')}
            </Button>
          ) : null
        }
      >
        {article.data.candidates.length === 0 ? (
          <Empty description={t('composite.compose.noCandidates')} />
        ) : (
          <div className={styles.candidates} data-testid="swap-candidates">
            {article.data.candidates.map((candidate) => (
              <button
                type="button"
                key={candidate.itemId}
                className={`${styles.candidate} ${slot && view.choices[slot] === candidate.itemId ? styles.candidateChosen : ''}`}
                onClick={() => {
                  if (current) onChoose(current.slot, candidate.itemId, current.chosen);
                  setSlot(null);
                }}
                data-testid="swap-candidate"
              >
                {candidate.thumbUrl ? (
                  <img src={candidate.thumbUrl} alt="" />
                ) : (
                  <div style={{ height: 100 }} />
                )}
                <Typography.Text ellipsis style={{ display: 'block', fontSize: 12 }} title={candidate.name}>
                  {candidate.name}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {candidate.viewCode ?? '—'}
                  {candidate.width && candidate.height ? ` · ${candidate.width}×${candidate.height}` : ''}
                </Typography.Text>
              </button>
            ))}
          </div>
        )}
      </Drawer>
    </div>
  );
}

function RenderDialog({
  detail,
  plan,
  overrides,
  onClose,
  onStarted,
}: {
  detail: TemplateDetail;
  plan: MakerPlan;
  overrides: Overrides;
  onClose: () => void;
  onStarted: (jobId: number) => void;
}) {
  const { t } = useTranslation();
  const dimensions = useTagDimensions();
  const [folder, setFolder] = useState<{ id: number | 'all'; path: string } | null>(null);
  const [picking, setPicking] = useState(false);
  const [tagIds, setTagIds] = useState<number[]>(detail.spec.output.tagIds);
  const [tagging, setTagging] = useState(false);
  const [perArticle, setPerArticle] = useState(false);
  const [onlyComplete, setOnlyComplete] = useState(false);
  const [busy, setBusy] = useState(false);
  const names = new Map(
    (dimensions.data ?? []).flatMap((d) => d.tagDTOList.map((tag) => [tag.id, tag.tagName])),
  );
  const artNums = plan.articles.filter((a) => !onlyComplete || a.complete).map((a) => a.artNum);

  const start = async () => {
    if (!folder) return;
    setBusy(true);
    try {
      const { jobId } = await startMakerImage({
        templateId: detail.template.id,
        version: plan.version,
        artNums,
        overrides: overrideList(overrides, artNums),
        targetFolderId: folder.id,
        tagIdList: tagIds,
        subfolderPerArticle: perArticle,
      });
      onStarted(jobId);
    } catch (error) {
      showApiError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t('composite.render.title', { count: artNums.length })}
      onCancel={onClose}
      onOk={() => void start()}
      okText={t('composite.render.start')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !folder || artNums.length === 0, loading: busy, ...testId('render-start') }}
      destroyOnHidden
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <div>
          <Typography.Text strong>{t('composite.render.folder')}</Typography.Text>
          <div>
            <Space>
              <Typography.Text data-testid="render-folder-path">
                {folder ? folder.path : t('composite.render.noFolder')}
              </Typography.Text>
              <Button
                icon={<FolderOpenOutlined />}
                onClick={() => setPicking(true)}
                data-testid="render-choose-folder"
              >
                {t('files.choose')}
              </Button>
            </Space>
          </div>
        </div>
        <div>
          <Typography.Text strong>{t('composite.render.tags')}</Typography.Text>
          <div>
            <Space wrap>
              {tagIds.map((id) => (
                <Tag key={id}>{names.get(id) ?? `#${id}`}</Tag>
              ))}
              <Button size="small" onClick={() => setTagging(true)} data-testid="render-tags">
                {t('composite.editor.chooseTags')}
              </Button>
            </Space>
          </div>
        </div>
        <Checkbox
          checked={perArticle}
          onChange={(e) => setPerArticle(e.target.checked)}
          data-testid="render-per-article"
        >
          {t('composite.render.perArticle')}
        </Checkbox>
        <Checkbox checked={onlyComplete} onChange={(e) => setOnlyComplete(e.target.checked)}>
          {t('composite.render.onlyComplete')}
        </Checkbox>
        <Typography.Text type="secondary">
          {t('composite.render.names', { stem: detail.spec.output.stem })}
        </Typography.Text>
      </Space>
      <MoveDialog
        open={picking}
        title={t('composite.render.folder')}
        onCancel={() => setPicking(false)}
        onConfirm={async (target, path) => {
          setFolder({ id: target, path });
          setPicking(false);
        }}
      />
      {tagging && (
        <AddTagDialog
          title={t('composite.render.tags')}
          initial={tagIds}
          artNums={artNums}
          onConfirm={(ids) => setTagIds(ids)}
          onClose={() => setTagging(false)}
        />
      )}
    </Modal>
  );
}
