import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { DownloadPreset } from '@dam/contract';
import { Button, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteConfirmButton } from '../../ui/DeleteConfirmButton';
import { useDeletePreset, usePresets } from '../download';
import { PresetDialog } from './PresetDialog';
import { COLOUR_LABEL, METADATA_LABEL } from './PresetOutputFields';

/** Column titles on one line: a wrapped "Longer / side" reads badly. */
function withNowrapHeaders(columns: TableColumnsType<DownloadPreset>): TableColumnsType<DownloadPreset> {
  return columns.map((column) => ({ ...column, onHeaderCell: () => ({ style: { whiteSpace: 'nowrap' } }) }));
}

/** /manage/download-presets: the presets the download dialogs offer, for tag managers (code 4). */
export function DownloadPresetsPage() {
  const { t } = useTranslation();
  const presets = usePresets();
  const remove = useDeletePreset();
  const [editing, setEditing] = useState<DownloadPreset | 'new' | null>(null);

  return (
    <div data-testid="presets-page">
      <div style={{ display: 'flex', alignItems: 'center', gap: 16, marginBottom: 12 }}>
        <Typography.Text type="secondary" style={{ flex: 1, minWidth: 0 }}>
          {t('presets.intro')}
        </Typography.Text>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing('new')}
          data-testid="preset-new"
        >
          {t('presets.create')}
        </Button>
      </div>
      <Table<DownloadPreset>
        rowKey="id"
        loading={presets.isPending}
        dataSource={presets.data ?? []}
        pagination={false}
        scroll={{ x: 1150 }}
        locale={{ emptyText: t('presets.empty') }}
        columns={withNowrapHeaders([
          { title: t('presets.name'), dataIndex: 'name', width: 140, ellipsis: true },
          {
            title: t('presets.format'),
            dataIndex: 'format',
            width: 100,
            render: (format: string) => <Tag>{format.toUpperCase()}</Tag>,
          },
          {
            title: t('presets.longSide'),
            dataIndex: 'longSidePx',
            width: 130,
            render: (px: number | null) => (px ? `${px} px` : t('presets.originalSize')),
          },
          {
            title: t('presets.background'),
            dataIndex: 'background',
            width: 130,
            render: (colour: string | null) =>
              colour ? (
                <Space size={6}>
                  <span
                    style={{
                      display: 'inline-block',
                      width: 14,
                      height: 14,
                      borderRadius: 3,
                      background: colour,
                      border: '1px solid #d9d9d9',
                      verticalAlign: 'middle',
                    }}
                  />
                  {colour}
                </Space>
              ) : (
                <Typography.Text type="secondary">{t('presets.transparent')}</Typography.Text>
              ),
          },
          {
            title: t('presets.metadata'),
            dataIndex: 'metadata',
            width: 140,
            render: (value: DownloadPreset['metadata']) => (
              <Tag color={value === 'strip' ? 'orange' : 'blue'}>{t(METADATA_LABEL[value])}</Tag>
            ),
          },
          {
            title: t('presets.colourProfile'),
            dataIndex: 'colourProfile',
            width: 150,
            render: (value: DownloadPreset['colourProfile']) => t(COLOUR_LABEL[value]),
          },
          {
            title: t('presets.template'),
            dataIndex: 'fileNameTemplate',
            render: (template: string) => (
              <Typography.Text code style={{ overflowWrap: 'anywhere' }}>
                {template}
              </Typography.Text>
            ),
          },
          {
            title: t('presets.updatedAt'),
            dataIndex: 'updatedAt',
            width: 170,
            render: (at: string) => (
              <span style={{ whiteSpace: 'nowrap' }}>{dayjs(at).format('YYYY-MM-DD HH:mm')}</span>
            ),
          },
          {
            title: t('presets.actions'),
            key: 'actions',
            width: 100,
            fixed: 'right',
            render: (_value, preset) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => setEditing(preset)}
                  aria-label={t('presets.edit')}
                  data-testid="preset-edit"
                />
                <DeleteConfirmButton
                  title={t('presets.confirmDelete', { name: preset.name })}
                  onDelete={() => remove.mutateAsync(preset.id)}
                  testId="preset-delete"
                />
              </Space>
            ),
          },
        ])}
      />
      {editing && <PresetDialog preset={editing} onClose={() => setEditing(null)} />}
    </div>
  );
}
