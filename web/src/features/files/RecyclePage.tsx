import { DeleteOutlined, FileOutlined, FolderFilled, UndoOutlined } from '@ant-design/icons';
import { ItemType, type RecycledItem } from '@dam/contract';
import { App, Button, Empty, Result, Space, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filesApi, useInvalidateFiles, useRecycleList } from '../../api/items';
import { notifySuccess } from '../../api/notify';
import { formatDate, formatSize } from '../../ui/format';
import { loadMoreTableFooter } from '../../ui/LoadMoreFooter';

/** SPEC §2 /recycle: what I deleted; restore, delete permanently, clear — each confirmed. */
export function RecyclePage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const list = useRecycleList();
  const invalidate = useInvalidateFiles();
  const [selected, setSelected] = useState<number[]>([]);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.list) ?? [], [list.data]);

  const confirm = (title: string, danger: boolean, work: () => Promise<unknown>, done: string) =>
    modal.confirm({
      title,
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger },
      onOk: async () => {
        await work();
        notifySuccess(done);
        setSelected([]);
        await invalidate();
      },
    });

  if (list.isError && rows.length === 0) {
    return (
      <Result
        status="warning"
        title={t('common.loadFailed')}
        extra={<Button onClick={() => void list.refetch()}>{t('common.retry')}</Button>}
      />
    );
  }

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="recycle-page">
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('nav.recycle')}
        </Typography.Title>
        <Space wrap>
          <Button
            icon={<UndoOutlined />}
            disabled={selected.length === 0}
            onClick={() =>
              confirm(
                t('files.confirmRestore', { count: selected.length }),
                false,
                () => filesApi.restore(selected),
                t('files.restoredOk'),
              )
            }
            data-testid="recycle-restore"
          >
            {t('files.restore')}
          </Button>
          <Button
            icon={<DeleteOutlined />}
            danger
            disabled={selected.length === 0}
            onClick={() =>
              confirm(
                t('files.confirmPurge', { count: selected.length }),
                true,
                () => filesApi.purge(selected),
                t('common.deleteOk'),
              )
            }
            data-testid="recycle-purge"
          >
            {t('files.deleteForever')}
          </Button>
          <Button
            danger
            type="primary"
            disabled={rows.length === 0}
            onClick={() =>
              confirm(t('files.confirmClear'), true, () => filesApi.clearRecycle(), t('common.deleteOk'))
            }
            data-testid="recycle-clear"
          >
            {t('files.clearRecycle')}
          </Button>
        </Space>
      </Space>
      <Table<RecycledItem>
        rowKey="id"
        loading={list.isPending}
        dataSource={rows}
        pagination={false}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        locale={{ emptyText: <Empty description={t('files.emptyRecycle')} /> }}
        columns={[
          {
            title: t('files.name'),
            dataIndex: 'name',
            render: (name: string, row) => (
              <Space>
                {row.type === ItemType.folder ? (
                  <FolderFilled style={{ color: '#f5b335' }} />
                ) : (
                  <FileOutlined />
                )}
                <span data-testid="recycle-name">{name}</span>
                {row.fileFormat && (
                  <Typography.Text type="secondary">{row.fileFormat.toUpperCase()}</Typography.Text>
                )}
              </Space>
            ),
          },
          { title: t('files.location'), dataIndex: 'path', ellipsis: true },
          {
            title: t('files.size'),
            dataIndex: 'fileSize',
            width: 110,
            render: (size: number, row) => (row.type === ItemType.folder ? '—' : formatSize(size)),
          },
          {
            title: t('files.removedAt'),
            dataIndex: 'removedAt',
            width: 170,
            render: (at: string) => formatDate(at),
          },
        ]}
        footer={loadMoreTableFooter(list, t('common.loading'))}
      />
    </Space>
  );
}
