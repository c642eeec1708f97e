import {
  ArrowDownOutlined,
  ArrowLeftOutlined,
  ArrowUpOutlined,
  CopyOutlined,
  DeleteOutlined,
  HistoryOutlined,
  PlusOutlined,
  SaveOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import {
  BLOCK_TYPES,
  type Block,
  type BlockType,
  FunctionCode,
  type ImageSize,
  type LayoutInputs,
  type TemplateAsset,
  type TemplateDetail,
} from '@dam/contract';
import {
  App,
  Button,
  Card,
  Checkbox,
  Drawer,
  Dropdown,
  Empty,
  Form,
  Input,
  InputNumber,
  List,
  Radio,
  Result,
  Space,
  Spin,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiError, call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { notifyError, notifySuccess } from '../../api/notify';
import { useTagDimensions } from '../../api/tags';
import { holdsCodes } from '../../auth/guard';
import { functionCodesOf, useCurrentUser } from '../../auth/useCurrentUser';
import { AddTagDialog } from '../tagging/lazy';
import { BlockForm, ColourInput, Field } from './BlockForm';
import styles from './composite.module.css';
import { useMakerArticle, useSaveTemplate, useTemplateDetail, useTemplateFonts } from './compositeApi';
import { ExactPreview } from './ExactPreview';
import { PagePreview } from './PagePreview';
import { useSlotNaming } from './slotNaming';
import {
  addBlock,
  blockIndexOf,
  type DraftProblem,
  draftProblems,
  draftToSpec,
  duplicateBlock,
  moveBlock,
  newDraft,
  refusedField,
  removeBlock,
  replaceBlock,
  type TemplateDraft,
} from './templateDraft';

/** A block's one-line name in the list: its label, text or height. */
function blockSummary(block: Block): string {
  if (block.type === 'text') return block.text.slice(0, 24);
  if (block.type === 'spacer') return `${block.height} px`;
  if (block.type === 'image')
    return (
      block.label ||
      (block.rule.kind === 'view' ? block.rule.code : block.rule.kind === 'nth' ? `#${block.rule.n}` : '')
    );
  if (block.type === 'grid')
    return block.label || `${block.columns} × ${Math.ceil(block.cells.length / block.columns)}`;
  return block.label;
}

/** The problems' texts by path, in the user's language. */
function useProblemTexts(problems: readonly DraftProblem[], server: { path: string; reason: string } | null) {
  const { t } = useTranslation();
  return useMemo(() => {
    const texts = new Map<string, string>();
    for (const problem of problems)
      if (!texts.has(problem.path))
        texts.set(problem.path, t(`composite.problem.${problem.key}`, problem.values));
    if (server) texts.set(server.path, server.reason);
    return texts;
  }, [problems, server, t]);
}

/** /templates/:id and /templates/new (function code 9): blocks, their form, the live and exact previews. */
export function TemplateEditorPage() {
  const { id: param } = useParams();
  const user = useCurrentUser();
  const { t } = useTranslation();
  const id = param && param !== 'new' ? Number(param) : null;
  const detail = useTemplateDetail(id !== null && Number.isInteger(id) && id > 0 ? id : null);
  if (user.isPending) return <Spin />;
  if (!holdsCodes(functionCodesOf(user.data), [FunctionCode.template]))
    return <Result status="403" title="403" subTitle={t('composite.noAccess')} />;
  if (id !== null) {
    if (!Number.isInteger(id) || id <= 0 || detail.isError)
      return <Result status="404" title={t('composite.editor.notFound')} />;
    if (!detail.data) return <Spin />;
  }
  return (
    <Editor
      key={`${id ?? 'new'}:${detail.data?.version ?? 0}`}
      detail={detail.data ?? null}
      onReload={() => void detail.refetch()}
    />
  );
}

function Editor({ detail, onReload }: { detail: TemplateDetail | null; onReload: () => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const fonts = useTemplateFonts();
  const save = useSaveTemplate();
  const dimensions = useTagDimensions();
  const [draft, setDraft] = useState<TemplateDraft>(() =>
    detail ? { name: detail.template.name, status: detail.template.status, spec: detail.spec } : newDraft(),
  );
  const [selected, setSelected] = useState(0);
  const [tried, setTried] = useState(false);
  const [serverProblem, setServerProblem] = useState<{ path: string; reason: string } | null>(null);
  const [assets, setAssets] = useState<Map<number, TemplateAsset>>(
    () => new Map((detail?.assets ?? []).map((asset) => [asset.id, asset])),
  );
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [tagsOpen, setTagsOpen] = useState(false);
  const [sampleInput, setSampleInput] = useState('');
  const [sample, setSample] = useState<string | null>(null);

  const problems = useMemo(() => draftProblems(draft, fonts.data), [draft, fonts.data]);
  // Problems show once the author tried to save, or on fields already touched by a server refusal.
  const shown = useProblemTexts(tried ? problems : [], serverProblem);
  const blocksWithProblems = new Set(
    [...shown.keys()].map(blockIndexOf).filter((index): index is number => index !== null),
  );

  const change = (next: TemplateDraft) => {
    setDraft(next);
    setServerProblem(null);
  };
  const setSpec = (patch: Partial<TemplateDraft['spec']>) =>
    change({ ...draft, spec: { ...draft.spec, ...patch } });
  const setOutput = (patch: Partial<TemplateDraft['spec']['output']>) =>
    setSpec({ output: { ...draft.spec.output, ...patch } });
  const setBlocks = (blocks: Block[]) => setSpec({ blocks });
  const defaultFont =
    fonts.data?.find((font) => font.available && font.cjk)?.id ??
    fonts.data?.find((f) => f.available)?.id ??
    '';

  const spec = useMemo(() => draftToSpec(draft.spec), [draft.spec]);
  const naming = useSlotNaming(draft.spec);
  const sampleArticle = useMakerArticle(
    detail?.template.id ?? 0,
    detail?.version ?? 0,
    detail ? sample : null,
  );
  const { slotImages, inputs } = useMemo(() => {
    const images: Record<string, string | null> = {};
    const slots: Record<string, ImageSize | null> = {};
    const article = sampleArticle.data;
    if (article) {
      const byId = new Map(article.candidates.map((c) => [c.itemId, c]));
      for (const slot of article.slots) {
        const chosen = slot.chosen === null ? undefined : byId.get(slot.chosen);
        images[slot.slot] = chosen?.thumbUrl ?? null;
        slots[slot.slot] =
          chosen?.width && chosen.height ? { width: chosen.width, height: chosen.height } : null;
      }
    }
    const assetSizes: Record<number, ImageSize> = {};
    for (const asset of assets.values()) assetSizes[asset.id] = { width: asset.width, height: asset.height };
    return {
      slotImages: article ? images : undefined,
      inputs: { slots: article ? slots : undefined, assets: assetSizes } satisfies LayoutInputs,
    };
  }, [sampleArticle.data, assets]);
  const assetUrls = useMemo(
    () => Object.fromEntries([...assets.values()].map((a) => [a.id, a.url])),
    [assets],
  );
  const previewBody =
    problems.length === 0 ? { spec, overrides: [], ...(sample && detail ? { artNum: sample } : {}) } : null;

  const doSave = async () => {
    setTried(true);
    if (problems.length > 0) {
      const first = problems.map((p) => blockIndexOf(p.path)).find((index) => index !== null);
      if (first !== undefined && first !== null) setSelected(first);
      notifyError(t('composite.editor.fixProblems', { count: problems.length }));
      return;
    }
    try {
      const saved = await save.mutateAsync({
        ...(detail ? { id: detail.template.id, baseVersion: detail.version } : {}),
        name: draft.name.trim(),
        status: draft.status,
        spec,
      });
      notifySuccess(t('composite.editor.saved', { version: saved.version }));
      if (!detail || saved.version !== detail.version)
        void navigate(`/templates/${saved.id}`, { replace: true });
      if (detail && saved.version === detail.version) onReload();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 'SECP_06') {
        modal.confirm({
          title: error.desc,
          content: t('composite.editor.reloadHint'),
          okText: t('composite.editor.reload'),
          cancelText: t('common.cancel'),
          onOk: onReload,
        });
        return;
      }
      const field =
        error.code === 'SE_400'
          ? refusedField(error.desc)
          : error.code === 'SECP_02'
            ? { path: 'name', reason: error.desc }
            : null;
      if (field) {
        setServerProblem(field);
        const index = blockIndexOf(field.path);
        if (index !== null) setSelected(index);
      }
      notifyError(error.desc);
    }
  };

  const block = draft.spec.blocks[selected];
  const tagNames = new Map(
    (dimensions.data ?? []).flatMap((d) => d.tagDTOList.map((tag) => [tag.id, tag.tagName])),
  );

  return (
    <div data-testid="template-editor">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Space>
          <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate('/templates')}>
            {t('composite.templates.back')}
          </Button>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {detail ? detail.template.name : t('composite.templates.new')}
          </Typography.Title>
          {detail && (
            <Typography.Text type="secondary" data-testid="template-version">
              {t('composite.editor.versionLine', {
                version: detail.version,
                name: detail.template.updatedByName ?? '—',
              })}
            </Typography.Text>
          )}
        </Space>
        <Space>
          {detail && (
            <Button
              icon={<HistoryOutlined />}
              onClick={() => setVersionsOpen(true)}
              data-testid="template-versions"
            >
              {t('composite.editor.versions')}
            </Button>
          )}
          <Button
            type="primary"
            icon={<SaveOutlined />}
            loading={save.isPending}
            onClick={() => void doSave()}
            data-testid="template-save"
          >
            {t('common.save')}
          </Button>
        </Space>
      </Space>

      <div className={styles.editor}>
        <div>
          <Card size="small" title={t('composite.editor.page')} style={{ marginBottom: 12 }}>
            <Form layout="vertical" component="div">
              <Field label={t('composite.editor.name')} path="name" problems={shown}>
                <Input
                  value={draft.name}
                  maxLength={60}
                  onChange={(e) => change({ ...draft, name: e.target.value })}
                  data-testid="template-name"
                />
              </Field>
              <Field label={t('composite.editor.status')} path="status" problems={shown}>
                <Radio.Group
                  value={draft.status}
                  optionType="button"
                  options={[
                    { value: 1, label: t('composite.status.active') },
                    { value: 0, label: t('composite.status.archived') },
                  ]}
                  onChange={(e) => change({ ...draft, status: e.target.value })}
                />
              </Field>
              <Field label={t('composite.editor.width')} path="spec.width" problems={shown}>
                <InputNumber
                  value={draft.spec.width}
                  precision={0}
                  style={{ width: '100%' }}
                  suffix="px"
                  onChange={(width) => setSpec({ width: Number(width ?? 0) })}
                  data-testid="template-width"
                />
              </Field>
              <Field label={t('composite.editor.background')} path="spec.background" problems={shown}>
                <ColourInput
                  value={draft.spec.background}
                  onChange={(background) => setSpec({ background: background ?? '#ffffff' })}
                />
              </Field>
            </Form>
          </Card>
          <Card
            size="small"
            title={t('composite.editor.blocks', { count: draft.spec.blocks.length })}
            extra={
              <Dropdown
                trigger={['click']}
                menu={{
                  items: BLOCK_TYPES.map((type) => ({
                    key: type,
                    label: t(`composite.blockType.${type}`),
                    'data-testid': `add-block-${type}`,
                  })),
                  onClick: ({ key }) => {
                    setBlocks(addBlock(draft.spec.blocks, key as BlockType, defaultFont));
                    setSelected(draft.spec.blocks.length);
                  },
                }}
              >
                <Button size="small" type="primary" icon={<PlusOutlined />} data-testid="add-block">
                  {t('composite.editor.addBlock')}
                </Button>
              </Dropdown>
            }
          >
            {shown.get('spec.blocks') && (
              <Typography.Text type="danger">{shown.get('spec.blocks')}</Typography.Text>
            )}
            {draft.spec.blocks.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('composite.editor.noBlocks')} />
            ) : (
              <div className={styles.blockList} data-testid="block-list">
                {draft.spec.blocks.map((each, index) => (
                  // biome-ignore lint/a11y/useSemanticElements: a row holding its own buttons cannot be a button
                  <div
                    key={each.id}
                    role="button"
                    tabIndex={0}
                    className={[
                      styles.blockRow,
                      index === selected ? styles.blockRowActive : '',
                      blocksWithProblems.has(index) ? styles.blockRowError : '',
                    ]
                      .filter(Boolean)
                      .join(' ')}
                    onClick={() => setSelected(index)}
                    onKeyDown={(e) => e.key === 'Enter' && setSelected(index)}
                    data-testid="block-row"
                    data-type={each.type}
                  >
                    {blocksWithProblems.has(index) && <WarningOutlined style={{ color: '#ff4d4f' }} />}
                    <Tag style={{ marginInlineEnd: 0 }}>{t(`composite.blockType.${each.type}`)}</Tag>
                    <span className={styles.blockName} title={blockSummary(each)}>
                      {blockSummary(each)}
                    </span>
                    <Tooltip title={t('composite.editor.up')}>
                      <Button
                        size="small"
                        type="text"
                        icon={<ArrowUpOutlined />}
                        disabled={index === 0}
                        onClick={(e) => {
                          e.stopPropagation();
                          setBlocks(moveBlock(draft.spec.blocks, index, -1));
                          setSelected(index - 1);
                        }}
                        data-testid="block-up"
                      />
                    </Tooltip>
                    <Tooltip title={t('composite.editor.down')}>
                      <Button
                        size="small"
                        type="text"
                        icon={<ArrowDownOutlined />}
                        disabled={index === draft.spec.blocks.length - 1}
                        onClick={(e) => {
                          e.stopPropagation();
                          setBlocks(moveBlock(draft.spec.blocks, index, 1));
                          setSelected(index + 1);
                        }}
                        data-testid="block-down"
                      />
                    </Tooltip>
                    <Tooltip title={t('composite.editor.duplicate')}>
                      <Button
                        size="small"
                        type="text"
                        icon={<CopyOutlined />}
                        onClick={(e) => {
                          e.stopPropagation();
                          setBlocks(duplicateBlock(draft.spec.blocks, index));
                          setSelected(index + 1);
                        }}
                        data-testid="block-duplicate"
                      />
                    </Tooltip>
                    <Tooltip title={t('composite.editor.remove')}>
                      <Button
                        size="small"
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        onClick={(e) => {
                          e.stopPropagation();
                          setBlocks(removeBlock(draft.spec.blocks, index));
                          setSelected(Math.max(0, Math.min(selected, draft.spec.blocks.length - 2)));
                        }}
                        data-testid="block-delete"
                      />
                    </Tooltip>
                  </div>
                ))}
              </div>
            )}
          </Card>
          <Card size="small" title={t('composite.editor.output')} style={{ marginTop: 12 }}>
            <Form layout="vertical" component="div">
              <Field
                label={t('composite.editor.sliceMaxHeight')}
                path="spec.output.sliceMaxHeight"
                problems={shown}
              >
                <InputNumber
                  value={draft.spec.output.sliceMaxHeight}
                  precision={0}
                  style={{ width: '100%' }}
                  suffix="px"
                  onChange={(v) => setOutput({ sliceMaxHeight: Number(v ?? 0) })}
                  data-testid="template-slice-height"
                />
              </Field>
              <Field label={t('composite.editor.quality')} path="spec.output.quality" problems={shown}>
                <InputNumber
                  value={draft.spec.output.quality}
                  precision={0}
                  min={50}
                  max={100}
                  style={{ width: '100%' }}
                  onChange={(v) => setOutput({ quality: Number(v ?? 85) })}
                />
              </Field>
              <Field
                label={t('composite.editor.stem')}
                path="spec.output.stem"
                problems={shown}
                extra={t('composite.editor.stemHint', { stem: draft.spec.output.stem.trim() || '…' })}
              >
                <Input
                  value={draft.spec.output.stem}
                  maxLength={40}
                  onChange={(e) => setOutput({ stem: e.target.value })}
                  data-testid="template-stem"
                />
              </Field>
              <Field label={t('composite.editor.outputs')} path="spec.output.slices" problems={shown}>
                <Space>
                  <Checkbox
                    checked={draft.spec.output.page}
                    onChange={(e) => setOutput({ page: e.target.checked })}
                  >
                    {t('composite.editor.outputPage')}
                  </Checkbox>
                  <Checkbox
                    checked={draft.spec.output.slices}
                    onChange={(e) => setOutput({ slices: e.target.checked })}
                  >
                    {t('composite.editor.outputSlices')}
                  </Checkbox>
                </Space>
              </Field>
              <Field label={t('composite.editor.defaultTags')} path="spec.output.tagIds" problems={shown}>
                <Space wrap>
                  {draft.spec.output.tagIds.map((tagId) => (
                    <Tag key={tagId}>{tagNames.get(tagId) ?? `#${tagId}`}</Tag>
                  ))}
                  <Button size="small" onClick={() => setTagsOpen(true)} data-testid="template-tags">
                    {t('composite.editor.chooseTags')}
                  </Button>
                </Space>
              </Field>
            </Form>
          </Card>
        </div>

        <div>
          <Card
            size="small"
            title={
              block
                ? t('composite.editor.blockTitle', { type: t(`composite.blockType.${block.type}`) })
                : t('composite.editor.blockNone')
            }
          >
            {block ? (
              <BlockForm
                key={block.id}
                block={block}
                path={`spec.blocks.${selected}`}
                problems={shown}
                fonts={fonts.data ?? []}
                assets={assets}
                onAsset={(asset) => setAssets((all) => new Map(all).set(asset.id, asset))}
                onChange={(next) => setBlocks(replaceBlock(draft.spec.blocks, selected, next))}
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('composite.editor.pickBlock')} />
            )}
          </Card>
        </div>

        <div className={styles.sticky}>
          <Card
            size="small"
            title={t('composite.preview.title')}
            extra={
              detail ? (
                <Input.Search
                  size="small"
                  allowClear
                  style={{ width: 200 }}
                  placeholder={t('composite.preview.sample')}
                  value={sampleInput}
                  onChange={(e) => setSampleInput(e.target.value)}
                  onSearch={(value) => setSample(value.trim() || null)}
                  loading={sampleArticle.isFetching}
                  data-testid="preview-sample"
                />
              ) : null
            }
          >
            {draft.spec.blocks.length > 0 ? (
              <section
                style={{ maxHeight: '45vh', overflow: 'auto' }}
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the keyboard's focus to scroll (axe scrollable-region-focusable)
                tabIndex={0}
                aria-label={t('composite.preview.title')}
              >
                <PagePreview
                  spec={draft.spec}
                  inputs={inputs}
                  slotImages={slotImages}
                  assetUrls={assetUrls}
                  fields={sampleArticle.data ? (sampleArticle.data.fields ?? null) : undefined}
                  naming={naming}
                />
              </section>
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('composite.editor.noBlocks')} />
            )}
          </Card>
          <Card size="small" style={{ marginTop: 12 }}>
            <div style={{ maxHeight: '40vh', overflow: 'auto' }}>
              <ExactPreview body={previewBody} />
            </div>
          </Card>
        </div>
      </div>

      {detail && (
        <VersionsDrawer
          open={versionsOpen}
          detail={detail}
          onClose={() => setVersionsOpen(false)}
          onRestore={(restored) => {
            change({ ...draft, spec: restored.spec });
            setAssets((all) => {
              const next = new Map(all);
              for (const asset of restored.assets) next.set(asset.id, asset);
              return next;
            });
            setVersionsOpen(false);
            notifySuccess(t('composite.editor.restored', { version: restored.version }));
          }}
        />
      )}
      {tagsOpen && (
        <AddTagDialog
          title={t('composite.editor.defaultTags')}
          initial={draft.spec.output.tagIds}
          onConfirm={(tagIds) => setOutput({ tagIds })}
          onClose={() => setTagsOpen(false)}
        />
      )}
    </div>
  );
}

/** The versions of a template; one is restored as a new version (the draft takes it; saving makes it current). */
function VersionsDrawer({
  open,
  detail,
  onClose,
  onRestore,
}: {
  open: boolean;
  detail: TemplateDetail;
  onClose: () => void;
  onRestore: (version: TemplateDetail) => void;
}) {
  const { t } = useTranslation();
  const [loading, setLoading] = useState<number | null>(null);
  const restore = async (version: number) => {
    setLoading(version);
    try {
      onRestore(await call(endpoints.templateDetail, { query: { id: detail.template.id, version } }));
    } catch {
      // Shown by the client.
    } finally {
      setLoading(null);
    }
  };
  useEffect(() => {
    if (!open) setLoading(null);
  }, [open]);
  return (
    <Drawer open={open} onClose={onClose} size={420} title={t('composite.editor.versions')} destroyOnHidden>
      <List
        dataSource={[...detail.versions].sort((a, b) => b.version - a.version)}
        renderItem={(version) => (
          <List.Item
            data-testid="template-version-row"
            actions={
              version.version === detail.version
                ? [
                    <Tag key="current" color="blue">
                      {t('composite.editor.current')}
                    </Tag>,
                  ]
                : [
                    <Button
                      key="restore"
                      size="small"
                      loading={loading === version.version}
                      onClick={() => void restore(version.version)}
                      data-testid="template-restore"
                    >
                      {t('composite.editor.restore')}
                    </Button>,
                  ]
            }
          >
            <List.Item.Meta
              title={`v${version.version}`}
              description={`${new Date(version.createdAt).toLocaleString()} · ${version.createdByName ?? '—'}`}
            />
          </List.Item>
        )}
      />
    </Drawer>
  );
}
