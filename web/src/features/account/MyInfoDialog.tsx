import { Avatar, Button, Descriptions, Flex, Modal, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { functionCodesOf, useCurrentUser } from '../../auth/useCurrentUser';
import { DEFAULT_AVATAR } from './avatar';
import { ChangeEmailForm } from './ChangeEmailForm';
import { ChangeMobileForm } from './ChangeMobileForm';
import { ChangePasswordForm } from './ChangePasswordForm';

type Mode = 'info' | 'password' | 'mobile' | 'email';
const TITLES: Record<Mode, string> = {
  info: 'account.title',
  password: 'account.changePassword',
  mobile: 'account.changeMobile',
  email: 'account.changeEmail',
};

/** SPEC §2 "my info": who I am, what I may do, and changing my password or mobile number. */
export function MyInfoDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const [mode, setMode] = useState<Mode>('info');
  const codes = functionCodesOf(user);
  const close = () => {
    setMode('info');
    onClose();
  };
  return (
    <Modal open={open} onCancel={close} footer={null} title={t(TITLES[mode])} destroyOnHidden width={520}>
      {mode === 'password' ? (
        <ChangePasswordForm onDone={close} />
      ) : mode === 'email' ? (
        <ChangeEmailForm current={user?.email ?? null} />
      ) : mode === 'mobile' ? (
        <ChangeMobileForm current={user?.mobile ?? null} onDone={() => setMode('info')} />
      ) : (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Space size="middle">
            <Avatar size={56} src={user?.avatar || DEFAULT_AVATAR} alt="" />
            <strong style={{ fontSize: 18 }}>{user?.name}</strong>
          </Space>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('account.username')}>{user?.username || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('account.email')}>
              <ChangeableValue value={user?.email} what="email" onChange={() => setMode('email')} />
            </Descriptions.Item>
            <Descriptions.Item label={t('account.mobile')}>
              <ChangeableValue value={user?.mobile} what="mobile" onChange={() => setMode('mobile')} />
            </Descriptions.Item>
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
          <Button onClick={() => setMode('password')} data-testid="open-change-password">
            {t('account.changePassword')}
          </Button>
        </Space>
      )}
    </Modal>
  );
}

/** A value of My info with the link that changes it (`my-<what>`, `open-change-<what>` for the journeys). */
function ChangeableValue({
  value,
  what,
  onChange,
}: {
  value: string | null | undefined;
  what: 'email' | 'mobile';
  onChange: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Flex justify="space-between" align="center">
      <span data-testid={`my-${what}`}>{value ?? '—'}</span>
      <Button type="link" size="small" onClick={onChange} data-testid={`open-change-${what}`}>
        {t(what === 'email' ? 'account.changeEmail' : 'account.changeMobile')}
      </Button>
    </Flex>
  );
}
