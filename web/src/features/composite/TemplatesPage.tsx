import { DeleteOutlined, EditOutlined, PlusOutlined, WarningOutlined } from '@ant-design/icons';
import { FunctionCode, type TemplateSummary } from '@dam/contract';
import {
  Button,
  Popconfirm,
  Result,
  Space,
  Spin,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { notifySuccess } from '../../api/notify';
import { holdsCodes } from '../../auth/guard';
import { functionCodesOf, useCurrentUser } from '../../auth/useCurrentUser';
import { useDeleteTemplate, useTemplateList } from './compositeApi';

/** /templates (function code 9): every template, archived ones too, to edit, archive or delete. */
export function TemplatesPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const allowed = holdsCodes(functionCodesOf(user.data), [FunctionCode.template]);
  if (user.isPending) return <Spin />;
  if (!allowed) return <Result status="403" title="403" subTitle={t('composite.noAccess')} />;
  return <TemplateTable />;
}

function TemplateTable() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useTemplateList(true);
  const remove = useDeleteTemplate();
  const columns: TableColumnsType<TemplateSummary> = [
    {
      title: t('composite.templates.name'),
      dataIndex: 'name',
      render: (name: string, row) => (
        <Space>
          <Link to={`/templates/${row.id}`} data-testid="template-link">
            {name}
          </Link>
          {row.missingFonts.length > 0 && (
            <Tooltip title={t('composite.templates.missingFonts', { fonts: row.missingFonts.join(', ') })}>
              <WarningOutlined style={{ color: '#faad14' }} data-testid="template-missing-fonts" />
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      title: t('composite.editor.status'),
      dataIndex: 'status',
      width: 90,
      render: (status: number) =>
        status === 1 ? (
          <Tag color="green">{t('composite.status.active')}</Tag>
        ) : (
          <Tag>{t('composite.status.archived')}</Tag>
        ),
    },
    {
      title: t('composite.templates.version'),
      dataIndex: 'currentVersion',
      width: 70,
      render: (v: number) => `v${v}`,
    },
    { title: t('composite.editor.width'), dataIndex: 'width', width: 80, render: (w: number) => `${w} px` },
    {
      title: t('composite.templates.blocks'),
      dataIndex: 'blockTypes',
      render: (types: string[]) => (
        <Space size={2} wrap>
          {types.map((type, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same type repeats; the order is the page's
            <Tag key={index} style={{ marginInlineEnd: 0 }}>
              {t(`composite.blockType.${type}`, { defaultValue: type })}
            </Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('composite.editor.sliceMaxHeight'),
      dataIndex: 'sliceMaxHeight',
      width: 110,
      render: (h: number) => `${h} px`,
    },
    {
      title: t('composite.templates.updated'),
      dataIndex: 'updatedAt',
      render: (at: string, row) => (
        <Typography.Text type="secondary">
          {new Date(at).toLocaleString()} · {row.updatedByName ?? '—'}
        </Typography.Text>
      ),
    },
    {
      title: t('composite.templates.actions'),
      width: 120,
      render: (_, row) => (
        <Space>
          <Button
            size="small"
            icon={<EditOutlined />}
            onClick={() => void navigate(`/templates/${row.id}`)}
          />
          <Popconfirm
            title={t('composite.templates.deleteConfirm', { name: row.name })}
            okText={t('common.confirm')}
            cancelText={t('common.cancel')}
            onConfirm={async () => {
              await remove.mutateAsync(row.id);
              notifySuccess(t('composite.templates.deleted'));
            }}
          >
            <Button size="small" danger icon={<DeleteOutlined />} data-testid="template-delete" />
          </Popconfirm>
        </Space>
      ),
    },
  ];
  return (
    <div data-testid="templates-page">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('nav.templates')}
        </Typography.Title>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => void navigate('/templates/new')}
          data-testid="template-new"
        >
          {t('composite.templates.new')}
        </Button>
      </Space>
      <Table<TemplateSummary>
        rowKey="id"
        size="middle"
        loading={list.isPending}
        dataSource={list.data ?? []}
        columns={columns}
        pagination={false}
        locale={{ emptyText: t('composite.templates.empty') }}
      />
    </div>
  );
}
