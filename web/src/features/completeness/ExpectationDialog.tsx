import { FolderOpenOutlined, PlusOutlined } from '@ant-design/icons';
import { COMPLETENESS_VIEWS_MAX, type CompletenessConfig } from '@dam/contract';
import { Alert, App, Button, Modal, Space, Spin, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { useTagDimensions } from '../../api/tags';
import { MoveDialog } from '../../ui/MoveDialog';
import { useCompletenessConfig, useSaveCompletenessConfig } from './completenessApi';
import { expectationColumns, type ViewDraft } from './expectationColumns';

let nextKey = 1;
const draftsOf = (config: CompletenessConfig): ViewDraft[] =>
  config.views.map((v) => ({
    key: nextKey++,
    name: v.name,
    code: v.code ?? '',
    tagId: v.tagId,
    formats: v.formats,
  }));

/**
 * The expectation of the completeness report, edited as a whole: the views (name, the file-name
 * code, optionally a tag that marks the view, the formats it needs) and the default upload folder.
 * Saved in one call; a refusal is shown with the server's reason and nothing changes.
 */
export function ExpectationDialog({ onClose }: { onClose: () => void }) {
  const config = useCompletenessConfig();
  return (
    <Modal open title={<ExpectationTitle />} width={860} onCancel={onClose} footer={null} destroyOnHidden>
      {config.data ? <ExpectationForm config={config.data} onClose={onClose} /> : <Spin />}
    </Modal>
  );
}

function ExpectationTitle() {
  const { t } = useTranslation();
  return <>{t('completeness.expectationTitle')}</>;
}

function ExpectationForm({ config, onClose }: { config: CompletenessConfig; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dimensions = useTagDimensions();
  const save = useSaveCompletenessConfig();
  const [views, setViews] = useState<ViewDraft[]>(() => draftsOf(config));
  const [folder, setFolder] = useState(config.defaultFolder);
  const [picking, setPicking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const change = (key: number, patch: Partial<ViewDraft>) =>
    setViews((all) => all.map((v) => (v.key === key ? { ...v, ...patch } : v)));

  const submit = async () => {
    setProblem(null);
    try {
      await save.mutateAsync({
        views: views.map((v) => ({
          name: v.name,
          code: v.code.trim() || null,
          tagId: v.tagId,
          formats: v.formats,
        })),
        defaultFolderId: folder?.id ?? null,
      });
      void message.success(t('common.saveOk'));
      onClose();
    } catch (error) {
      setProblem(error instanceof ApiError ? error.desc : t('errors.system'));
    }
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="expectation-dialog">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('completeness.expectationHint')}
      </Typography.Paragraph>
      {problem && <Alert type="error" showIcon title={problem} data-testid="expectation-problem" />}
      <Table<ViewDraft>
        rowKey="key"
        size="small"
        pagination={false}
        dataSource={views}
        columns={expectationColumns({
          t,
          dimensions: dimensions.data,
          onChange: change,
          onRemove: (key) => setViews((all) => all.filter((v) => v.key !== key)),
        })}
      />
      <Button
        icon={<PlusOutlined />}
        disabled={views.length >= COMPLETENESS_VIEWS_MAX}
        onClick={() =>
          setViews((all) => [...all, { key: nextKey++, name: '', code: '', tagId: null, formats: ['jpg'] }])
        }
        data-testid="expectation-add-view"
      >
        {t('completeness.addView', { max: COMPLETENESS_VIEWS_MAX })}
      </Button>
      <Space wrap>
        <Typography.Text>{t('completeness.defaultFolder')}</Typography.Text>
        <Typography.Text code data-testid="expectation-default-folder">
          {folder?.path ?? t('completeness.noDefaultFolder')}
        </Typography.Text>
        <Button size="small" icon={<FolderOpenOutlined />} onClick={() => setPicking(true)}>
          {t('completeness.chooseFolder')}
        </Button>
        {folder && (
          <Button size="small" onClick={() => setFolder(null)}>
            {t('completeness.clearFolder')}
          </Button>
        )}
      </Space>
      <Typography.Text type="secondary">{t('completeness.defaultFolderHint')}</Typography.Text>
      <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button
          type="primary"
          loading={save.isPending}
          onClick={() => void submit()}
          data-testid="expectation-save"
        >
          {t('common.save')}
        </Button>
      </Space>
      <MoveDialog
        open={picking}
        title={t('completeness.defaultFolder')}
        allowCreate={false}
        onCancel={() => setPicking(false)}
        onConfirm={async (id, path) => {
          setFolder(id === 'all' ? null : { id, path });
          setPicking(false);
        }}
      />
    </Space>
  );
}
