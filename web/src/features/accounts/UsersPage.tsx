import { DeleteOutlined, EditOutlined, KeyOutlined, UserAddOutlined } from '@ant-design/icons';
import { LIMITS, type ManagedUser } from '@dam/contract';
import {
  App,
  Button,
  Card,
  Checkbox,
  Empty,
  Input,
  Popconfirm,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { useCurrentUser } from '../../auth/useCurrentUser';
import { formatDate } from '../../ui/format';
import { useDeleteUser, useDepartments, useResetPassword, useUsers } from './accountsApi';
import { DepartmentPanel } from './DepartmentPanel';
import { IssuedPasswordDialog } from './IssuedPasswordDialog';
import { UserDialog } from './UserDialog';

const PAGE_SIZE = 20;

/**
 * /manage/users (code 2): the department tree beside the people of the chosen department, with
 * creating, editing, deleting people and resetting their passwords (SPEC §2, §3, §4 saves).
 */
export function UsersPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const me = useCurrentUser();
  const departments = useDepartments();
  const [deptId, setDeptId] = useState<number | null>(null);
  const [includeSubDepts, setIncludeSubDepts] = useState(true);
  const [keyword, setKeyword] = useState('');
  const [pageNo, setPageNo] = useState(1);
  const [dialog, setDialog] = useState<ManagedUser | 'new' | null>(null);
  const [issued, setIssued] = useState<{ who: string; password: string; kind: 'created' | 'reset' } | null>(
    null,
  );
  const removeUser = useDeleteUser();
  const resetPassword = useResetPassword();

  // Start on the root department once the tree is known.
  const rootId = departments.data?.find((d) => d.parentId === null)?.id ?? null;
  useEffect(() => {
    if (deptId === null && rootId !== null) setDeptId(rootId);
  }, [deptId, rootId]);

  const users = useUsers(
    {
      deptId: deptId ?? undefined,
      includeSubDepts,
      keyword: keyword || undefined,
      pageNo,
      pageSize: PAGE_SIZE,
    },
    deptId !== null,
  );

  const act = async (work: () => Promise<unknown>, success?: string) => {
    try {
      await work();
      if (success) void message.success(success);
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }} data-testid="users-page">
      <Card size="small" style={{ width: 240, flex: 'none' }}>
        <DepartmentPanel
          departments={departments.data ?? []}
          loading={departments.isPending}
          selectedId={deptId}
          onSelect={(id) => {
            setDeptId(id);
            setPageNo(1);
          }}
        />
      </Card>
      <div style={{ flex: 1, minWidth: 0 }}>
        <Space wrap style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }}>
          <Space wrap>
            <Input.Search
              allowClear
              maxLength={LIMITS.searchChars}
              placeholder={t('accounts.searchUsers')}
              onSearch={(value) => {
                setKeyword(value.trim());
                setPageNo(1);
              }}
              style={{ width: 260 }}
              data-testid="user-search"
            />
            <Checkbox
              checked={includeSubDepts}
              onChange={(e) => {
                setIncludeSubDepts(e.target.checked);
                setPageNo(1);
              }}
            >
              {t('accounts.includeSubDepts')}
            </Checkbox>
          </Space>
          <Button
            type="primary"
            icon={<UserAddOutlined />}
            onClick={() => setDialog('new')}
            disabled={deptId === null}
            data-testid="user-add"
          >
            {t('accounts.newUser')}
          </Button>
        </Space>
        <Table<ManagedUser>
          rowKey="id"
          size="middle"
          loading={users.isPending || users.isFetching}
          dataSource={users.data?.list ?? []}
          scroll={{ x: 760 }}
          locale={{
            emptyText: <Empty description={keyword ? t('accounts.noMatch') : t('accounts.noUsers')} />,
          }}
          pagination={{
            current: pageNo,
            pageSize: PAGE_SIZE,
            total: users.data?.total ?? 0,
            showSizeChanger: false,
            showTotal: (total) => t('accounts.total', { count: String(total) }),
            onChange: setPageNo,
          }}
          columns={[
            {
              title: t('accounts.name'),
              dataIndex: 'name',
              width: 130,
              render: (name: string, user) => (
                <span data-testid="user-row-name">
                  {name}
                  {user.id === me.data?.id && (
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
                      onClick={() => setDialog(user)}
                      aria-label={t('accounts.editUser')}
                      data-testid="user-edit"
                    />
                  </Tooltip>
                  <Popconfirm
                    title={t('accounts.resetConfirm', { name: user.name })}
                    okText={t('accounts.reset')}
                    cancelText={t('common.cancel')}
                    // One's own password is changed in My info, with the current one (SEAC_08).
                    disabled={user.id === me.data?.id}
                    onConfirm={() =>
                      act(async () => {
                        const { password } = await resetPassword.mutateAsync({ userId: user.id });
                        setIssued({ who: user.name, password, kind: 'reset' });
                      })
                    }
                  >
                    <Tooltip
                      title={
                        user.id === me.data?.id ? t('accounts.cannotResetSelf') : t('accounts.resetPassword')
                      }
                    >
                      <Button
                        type="text"
                        icon={<KeyOutlined />}
                        aria-label={t('accounts.resetPassword')}
                        disabled={user.id === me.data?.id}
                        data-testid="user-reset"
                      />
                    </Tooltip>
                  </Popconfirm>
                  <Popconfirm
                    title={t('accounts.deleteUserConfirm', { name: user.name })}
                    okText={t('common.delete')}
                    cancelText={t('common.cancel')}
                    okButtonProps={{ danger: true }}
                    disabled={user.id === me.data?.id}
                    onConfirm={() =>
                      act(() => removeUser.mutateAsync({ userId: user.id }), t('common.deleteOk'))
                    }
                  >
                    <Tooltip
                      title={
                        user.id === me.data?.id ? t('accounts.cannotDeleteSelf') : t('accounts.deleteUser')
                      }
                    >
                      <Button
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        disabled={user.id === me.data?.id}
                        aria-label={t('accounts.deleteUser')}
                        data-testid="user-delete"
                      />
                    </Tooltip>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </div>
      {dialog && (
        <UserDialog
          user={dialog === 'new' ? null : dialog}
          deptId={deptId}
          departments={departments.data ?? []}
          onClose={() => setDialog(null)}
          onCreated={(who, password) => setIssued({ who, password, kind: 'created' })}
        />
      )}
      <IssuedPasswordDialog issued={issued} onClose={() => setIssued(null)} />
    </div>
  );
}
