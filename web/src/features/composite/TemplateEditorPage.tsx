import { ArrowLeftOutlined, HistoryOutlined, SaveOutlined } from '@ant-design/icons';
import { FunctionCode, type TemplateDetail } from '@dam/contract';
import { Button, Card, Empty, Result, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { notifySuccess } from '../../api/notify';
import { holdsCodes } from '../../auth/guard';
import { functionCodesOf, useCurrentUser } from '../../auth/useCurrentUser';
import { AddTagDialog } from '../tagging/lazy';
import { BlockForm } from './BlockForm';
import styles from './composite.module.css';
import { useTemplateDetail } from './compositeApi';
import { BlockListCard } from './editor/BlockListCard';
import { PreviewColumn } from './editor/PreviewColumn';
import { OutputCard, PageCard } from './editor/SettingsCards';
import { useEditorDraft } from './editor/useEditorDraft';
import { VersionsDrawer } from './editor/VersionsDrawer';
import { replaceBlock } from './templateDraft';

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

/** The editor's three columns: page, blocks and output; the selected block's form; the previews. */
function Editor({ detail, onReload }: { detail: TemplateDetail | null; onReload: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const editor = useEditorDraft(detail, onReload);
  const { draft, change, setOutput, setBlocks, selected, assets, addAssets, shown } = editor;
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [tagsOpen, setTagsOpen] = useState(false);
  const block = draft.spec.blocks[selected];

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
            loading={editor.saving}
            onClick={() => void editor.doSave()}
            data-testid="template-save"
          >
            {t('common.save')}
          </Button>
        </Space>
      </Space>

      <div className={styles.editor}>
        <div>
          <PageCard {...editor} />
          <BlockListCard {...editor} />
          <OutputCard {...editor} onChooseTags={() => setTagsOpen(true)} />
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
                fonts={editor.fonts}
                assets={assets}
                onAsset={(asset) => addAssets([asset])}
                onChange={(next) => setBlocks(replaceBlock(draft.spec.blocks, selected, next))}
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('composite.editor.pickBlock')} />
            )}
          </Card>
        </div>

        <PreviewColumn
          detail={detail}
          draftSpec={draft.spec}
          spec={editor.spec}
          valid={editor.problems.length === 0}
          assets={assets}
        />
      </div>

      {detail && (
        <VersionsDrawer
          open={versionsOpen}
          detail={detail}
          onClose={() => setVersionsOpen(false)}
          onRestore={(restored) => {
            change({ ...draft, spec: restored.spec });
            addAssets(restored.assets);
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
