import { Avatar, Button, Descriptions, Flex, Modal, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { functionCodesOf, useCurrentUser } from '../../auth/useCurrentUser';
import { DEFAULT_AVATAR } from './avatar';
import { ChangePasswordForm } from './ChangePasswordForm';

/** SPEC §2 "my info": who I am, what I may do, and changing my password. */
export function MyInfoDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const [changing, setChanging] = useState(false);
  const codes = functionCodesOf(user);
  const close = () => {
    setChanging(false);
    onClose();
  };
  return (
    <Modal
      open={open}
      onCancel={close}
      footer={null}
      title={changing ? t('account.changePassword') : t('account.title')}
      destroyOnHidden
      width={520}
    >
      {changing ? (
        <ChangePasswordForm onDone={close} />
      ) : (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Space size="middle">
            <Avatar size={56} src={user?.avatar || DEFAULT_AVATAR} />
            <strong style={{ fontSize: 18 }}>{user?.name}</strong>
          </Space>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('account.username')}>{user?.username || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('account.email')}>{user?.email ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('account.mobile')}>{user?.mobile ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('account.department')}>{user?.deptname ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('account.loginCount')}>{user?.loginNum ?? 0}</Descriptions.Item>
            <Descriptions.Item label={t('account.permissions')}>
              {codes.length === 0 ? (
                t('account.noPermissions')
              ) : (
                <Flex wrap gap={6}>
                  {codes.map((code) => (
                    <Tag key={code}>{t(`permission.code${code}`)}</Tag>
                  ))}
                </Flex>
              )}
            </Descriptions.Item>
          </Descriptions>
          <Button onClick={() => setChanging(true)} data-testid="open-change-password">
            {t('account.changePassword')}
          </Button>
        </Space>
      )}
    </Modal>
  );
}
