import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filesApi, filesKeys } from '../api/items';
import { showApiError } from '../api/showApiError';
import { FolderTree, TOP_KEY } from './FolderTree';
import { folderNameProblem, nameProblemText } from './format';

interface Props {
  open: boolean;
  title: string;
  /** SPEC §2: the create-folder button of the picker can be hidden. */
  allowCreate?: boolean;
  onCancel: () => void;
  /** Resolves when done; rejects to keep the dialog open. */
  onConfirm: (target: number | 'all', path: string) => Promise<void>;
}

/** Choose a folder (move target, new location): tree opened to depth 1, optional "new folder here". */
export function MoveDialog({ open, title, allowCreate = true, onCancel, onConfirm }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [selected, setSelected] = useState<string | null>(null);
  const [selectedPath, setSelectedPath] = useState('/');
  const [busy, setBusy] = useState(false);
  const [creating, setCreating] = useState(false);
  const [newName, setNewName] = useState('');
  const [refreshKey, setRefreshKey] = useState<string>();
  const queryClient = useQueryClient();

  const confirm = async () => {
    if (!selected) {
      void message.warning(t('files.noFolderSelected'));
      return;
    }
    setBusy(true);
    try {
      await onConfirm(selected === TOP_KEY ? 'all' : Number(selected), selectedPath);
      setSelected(null);
    } catch {
      // The caller showed why; the dialog stays open.
    } finally {
      setBusy(false);
    }
  };

  const create = async () => {
    const problem = folderNameProblem(newName);
    if (problem) {
      void message.error(nameProblemText(t, problem));
      return;
    }
    const parent = selected ?? TOP_KEY;
    try {
      await filesApi.createFolder({
        folderName: newName.trim(),
        parentId: parent === TOP_KEY ? 'all' : Number(parent),
      });
      setCreating(false);
      setNewName('');
      setRefreshKey(`${parent}:${Date.now()}`);
      // The new folder shows in its parent's listing and the sidebar's tree too.
      void queryClient.invalidateQueries({ queryKey: filesKeys.all });
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onCancel}
      destroyOnHidden
      footer={
        <Space style={{ width: '100%', justifyContent: 'space-between' }}>
          {allowCreate ? (
            <Button icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              {t('files.newFolderInside')}
            </Button>
          ) : (
            <span />
          )}
          <Space>
            <Button onClick={onCancel}>{t('common.cancel')}</Button>
            <Button type="primary" loading={busy} onClick={() => void confirm()} data-testid="move-confirm">
              {t('common.confirm')}
            </Button>
          </Space>
        </Space>
      }
    >
      {creating && (
        <Space.Compact style={{ width: '100%', marginBottom: 12 }}>
          <Input
            autoFocus
            value={newName}
            maxLength={60}
            placeholder={t('files.folderNamePlaceholder')}
            onChange={(e) => setNewName(e.target.value)}
            onPressEnter={() => void create()}
          />
          <Button type="primary" onClick={() => void create()}>
            {t('common.ok')}
          </Button>
        </Space.Compact>
      )}
      <div style={{ maxHeight: 380, overflow: 'auto' }}>
        <FolderTree
          selected={selected}
          onSelect={(key, path) => {
            setSelected(key);
            setSelectedPath(path);
          }}
          refreshKey={refreshKey}
        />
      </div>
    </Modal>
  );
}
