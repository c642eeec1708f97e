import { DeleteOutlined, EditOutlined, LockOutlined, PlusOutlined } from '@ant-design/icons';
import { FILE_PERMISSIONS, PermissionScope, type Role } from '@dam/contract';
import { App, Button, Empty, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { showApiError } from '../../api/showApiError';
import { useDeleteRole, useRoles } from './accountsApi';

const SCOPE_COLOUR: Record<PermissionScope, string | undefined> = {
  none: undefined,
  dept: 'blue',
  all: 'green',
};

/** /manage/role (code 3): every role with what it grants; editing happens on /manage/role/modify. */
export function RolesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const roles = useRoles();
  const remove = useDeleteRole();

  const deleteRole = async (role: Role) => {
    try {
      await remove.mutateAsync({ roleId: role.id });
      void message.success(t('common.deleteOk'));
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="roles-page">
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('roles.intro')}
        </Typography.Paragraph>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => navigate('/manage/role/modify')}
          data-testid="role-add"
        >
          {t('roles.create')}
        </Button>
      </Space>
      <Table<Role>
        rowKey="id"
        size="middle"
        loading={roles.isPending}
        dataSource={roles.data ?? []}
        pagination={false}
        scroll={{ x: 900 }}
        locale={{ emptyText: <Empty description={t('roles.empty')} /> }}
        columns={[
          {
            title: t('roles.name'),
            dataIndex: 'name',
            width: 180,
            render: (name: string, role) => (
              <Space size={4} data-testid="role-row-name">
                {role.isSystem && (
                  <Tooltip title={t('roles.systemHint')}>
                    <LockOutlined />
                  </Tooltip>
                )}
                {name}
              </Space>
            ),
          },
          {
            title: t('roles.filePermissions'),
            key: 'files',
            render: (_v, role) => (
              <Space size={[4, 4]} wrap>
                {FILE_PERMISSIONS.map((permission) => {
                  const scope = role.filePermissions[permission];
                  return (
                    <Tag
                      key={permission}
                      color={SCOPE_COLOUR[scope]}
                      style={scope === PermissionScope.none ? { opacity: 0.55 } : undefined}
                    >
                      {t(`roles.permission.${permission}`)}: {t(`roles.scope.${scope}`)}
                    </Tag>
                  );
                })}
              </Space>
            ),
          },
          {
            title: t('roles.functionCodes'),
            dataIndex: 'functionCodes',
            render: (codes: number[]) =>
              codes.length === 0 ? (
                <Typography.Text type="secondary">{t('roles.noFunctions')}</Typography.Text>
              ) : (
                <Space size={[4, 4]} wrap>
                  {codes.map((code) => (
                    <Tag key={code}>{t(`permission.code${code}`)}</Tag>
                  ))}
                </Space>
              ),
          },
          { title: t('roles.userCount'), dataIndex: 'userCount', width: 90, align: 'right' },
          {
            title: t('accounts.actions'),
            key: 'actions',
            width: 100,
            fixed: 'right',
            render: (_v, role) => (
              <Space size={0}>
                <Tooltip title={t('roles.edit')}>
                  <Button
                    type="text"
                    icon={<EditOutlined />}
                    aria-label={t('roles.edit')}
                    onClick={() => navigate(`/manage/role/modify?id=${role.id}`)}
                    data-testid="role-edit"
                  />
                </Tooltip>
                <Popconfirm
                  title={
                    role.userCount > 0
                      ? t('roles.deleteConfirmUsed', { name: role.name, count: String(role.userCount) })
                      : t('roles.deleteConfirm', { name: role.name })
                  }
                  okText={t('common.delete')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  disabled={role.isSystem}
                  onConfirm={() => deleteRole(role)}
                >
                  <Tooltip title={role.isSystem ? t('roles.systemHint') : t('roles.delete')}>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      disabled={role.isSystem}
                      aria-label={t('roles.delete')}
                      data-testid="role-delete"
                    />
                  </Tooltip>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </Space>
  );
}
