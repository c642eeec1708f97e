import { FolderOpenOutlined } from '@ant-design/icons';
import type { MakerPlan, TemplateDetail } from '@dam/contract';
import { Button, Checkbox, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../../api/showApiError';
import { useTagDimensions } from '../../../api/tags';
import { lazyDialog } from '../../../ui/lazyPage';
import { testId } from '../../../ui/testId';
import { AddTagDialog } from '../../tagging/lazy';
import { startMakerImage } from '../compositeApi';
import { type Overrides, overrideList } from '../overrides';

const MoveDialog = lazyDialog(async () => (await import('../../../ui/MoveDialog')).MoveDialog);

/** Where the rendered pages go, with which tags, and whether incomplete articles are left out. */
export function RenderDialog({
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
