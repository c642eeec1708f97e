import { DeleteOutlined, EditOutlined, KeyOutlined } from '@ant-design/icons';
import type { ManagedUser } from '@dam/contract';
import { Button, Popconfirm, Space, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { formatDate } from '../../ui/format';

interface UserColumnsOptions {
  t: TFunction;
  /** The signed-in user's id: their own row is marked and cannot be reset or deleted. */
  meId: number | undefined;
  onEdit: (user: ManagedUser) => void;
  /** Returns the work's promise: Popconfirm keeps its OK button loading until it settles. */
  onResetPassword: (user: ManagedUser) => Promise<void>;
  onDelete: (user: ManagedUser) => Promise<void>;
}

/** The columns of the people table on /manage/users. */
export function userColumns({
  t,
  meId,
  onEdit,
  onResetPassword,
  onDelete,
}: UserColumnsOptions): TableColumnsType<ManagedUser> {
  return [
    {
      title: t('accounts.name'),
      dataIndex: 'name',
      width: 130,
      render: (name: string, user) => (
        <span data-testid="user-row-name">
          {name}
          {user.id === meId && (
            <Tag style={{ marginInlineStart: 6 }} color="blue">
              {t('accounts.you')}
            </Tag>
          )}
        </span>
      ),
    },
    // E-mail over phone in one column: with separate columns the table was wider than the
    // room beside the department tree at 1366 px and scrolled "last sign-in" out of view.
    {
      title: t('accounts.contact'),
      key: 'contact',
      ellipsis: true,
      render: (_value, user) => (
        <>
          <Typography.Text ellipsis style={{ display: 'block' }}>
            {user.email ?? '—'}
          </Typography.Text>
          {user.mobile && (
            <Typography.Text type="secondary" style={{ display: 'block' }}>
              {user.mobile}
            </Typography.Text>
          )}
        </>
      ),
    },
    { title: t('accounts.department'), dataIndex: 'deptName', width: 124, ellipsis: true },
    {
      title: t('accounts.roles'),
      dataIndex: 'roleList',
      render: (roles: ManagedUser['roleList']) =>
        roles.length === 0 ? (
          <Typography.Text type="secondary">{t('accounts.noRoles')}</Typography.Text>
        ) : (
          roles.map((role) => <Tag key={role.id}>{role.name}</Tag>)
        ),
    },
    {
      title: t('accounts.lastLogin'),
      dataIndex: 'lastLoginAt',
      width: 150,
      render: (at: string | null) => (at ? formatDate(at) : t('accounts.never')),
    },
    {
      title: t('accounts.actions'),
      key: 'actions',
      width: 116,
      fixed: 'right',
      render: (_value, user) => (
        <Space size={0}>
          <Tooltip title={t('accounts.editUser')}>
            <Button
              type="text"
              icon={<EditOutlined />}
              onClick={() => onEdit(user)}
              aria-label={t('accounts.editUser')}
              data-testid="user-edit"
            />
          </Tooltip>
          <Popconfirm
            title={t('accounts.resetConfirm', { name: user.name })}
            okText={t('accounts.reset')}
            cancelText={t('common.cancel')}
            // One's own password is changed in My info, with the current one (SEAC_08).
            disabled={user.id === meId}
            onConfirm={() => onResetPassword(user)}
          >
            <Tooltip title={user.id === meId ? t('accounts.cannotResetSelf') : t('accounts.resetPassword')}>
              <Button
                type="text"
                icon={<KeyOutlined />}
                aria-label={t('accounts.resetPassword')}
                disabled={user.id === meId}
                data-testid="user-reset"
              />
            </Tooltip>
          </Popconfirm>
          <Popconfirm
            title={t('accounts.deleteUserConfirm', { name: user.name })}
            okText={t('common.delete')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            disabled={user.id === meId}
            onConfirm={() => onDelete(user)}
          >
            <Tooltip title={user.id === meId ? t('accounts.cannotDeleteSelf') : t('accounts.deleteUser')}>
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                disabled={user.id === meId}
                aria-label={t('accounts.deleteUser')}
                data-testid="user-delete"
              />
            </Tooltip>
          </Popconfirm>
        </Space>
      ),
    },
  ];
}
