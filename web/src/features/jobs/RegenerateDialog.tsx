import { SearchFileType, SearchType } from '@dam/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Modal, Radio, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { endpoints } from '../../api/endpoints';
import { showApiError } from '../../api/showApiError';
import { lazyDialog } from '../../ui/lazyPage';
import { useRegeneratePreviews } from './api';

const MoveDialog = lazyDialog(async () => (await import('../../ui/MoveDialog')).MoveDialog);

/** Files whose title holds `text`, for the file picker. */
function useFileSearch(text: string) {
  return useQuery({
    queryKey: ['jobs', 'file-search', text],
    enabled: text.trim().length > 0,
    queryFn: () =>
      call(endpoints.search, {
        body: {
          searchType: SearchType.title,
          fileType: SearchFileType.files,
          query: text,
          pageNo: 1,
          pageSize: 20,
        },
      }),
  });
}

/** "Regenerate previews" of a file (found by its title) or of a folder (chosen in the tree). */
export function RegenerateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [kind, setKind] = useState<'file' | 'folder'>('file');
  const [text, setText] = useState('');
  const [fileId, setFileId] = useState<number | null>(null);
  const [picking, setPicking] = useState(false);
  const found = useFileSearch(text);
  const regenerate = useRegeneratePreviews();

  const run = async (itemId: number) => {
    try {
      const result = await regenerate.mutateAsync(itemId);
      void message.success(t('jobs.regenerated', { count: result.queued, pending: result.alreadyPending }));
      onClose();
    } catch (error) {
      showApiError(error);
      throw error;
    }
  };

  return (
    <Modal
      open={open}
      title={t('jobs.regenerate')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      data-testid="regenerate-dialog"
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('jobs.regenerateHint')}</Typography.Text>
        <Radio.Group
          value={kind}
          onChange={(e) => setKind(e.target.value)}
          optionType="button"
          options={[
            { value: 'file', label: t('jobs.aFile') },
            { value: 'folder', label: t('jobs.aFolder') },
          ]}
        />
        {kind === 'file' ? (
          <Space.Compact style={{ width: '100%' }}>
            <Select
              showSearch
              filterOption={false}
              onSearch={setText}
              value={fileId}
              onChange={setFileId}
              placeholder={t('jobs.findFile')}
              aria-label={t('jobs.findFile')}
              notFoundContent={text ? t('jobs.noFileFound') : null}
              loading={found.isFetching}
              options={(found.data?.list ?? []).map((item) => ({ value: item.id, label: item.name }))}
              style={{ width: '100%' }}
              data-testid="regenerate-file"
            />
            <Button
              type="primary"
              disabled={fileId === null}
              loading={regenerate.isPending}
              onClick={() => fileId !== null && void run(fileId).catch(() => undefined)}
              data-testid="regenerate-file-go"
            >
              {t('jobs.regenerateGo')}
            </Button>
          </Space.Compact>
        ) : (
          <Button onClick={() => setPicking(true)} data-testid="regenerate-folder">
            {t('jobs.chooseFolder')}
          </Button>
        )}
      </Space>
      <MoveDialog
        open={picking}
        title={t('jobs.chooseFolder')}
        allowCreate={false}
        onCancel={() => setPicking(false)}
        onConfirm={async (target) => {
          if (target === 'all') {
            void message.warning(t('jobs.chooseAFolder'));
            throw new Error('top level');
          }
          await run(target);
          setPicking(false);
        }}
      />
    </Modal>
  );
}
