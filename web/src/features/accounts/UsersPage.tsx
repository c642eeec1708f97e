import { UserAddOutlined } from '@ant-design/icons';
import { LIMITS, type ManagedUser } from '@dam/contract';
import { App, Button, Card, Checkbox, Empty, Input, Space, Table } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { useCurrentUser } from '../../auth/useCurrentUser';
import { useDeleteUser, useDepartments, useResetPassword, useUsers } from './accountsApi';
import { DepartmentPanel } from './DepartmentPanel';
import { IssuedPasswordDialog } from './IssuedPasswordDialog';
import { UserDialog } from './UserDialog';
import { userColumns } from './userColumns';

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
          columns={userColumns({
            t,
            meId: me.data?.id,
            onEdit: setDialog,
            onResetPassword: (user) =>
              act(async () => {
                const { password } = await resetPassword.mutateAsync({ userId: user.id });
                setIssued({ who: user.name, password, kind: 'reset' });
              }),
            onDelete: (user) => act(() => removeUser.mutateAsync({ userId: user.id }), t('common.deleteOk')),
          })}
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
