import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../api/notify';

/** A key as the dialog shows it: the record's name and the secret the server answered with, once. */
export interface IssuedSecret {
  name: string;
  keyId: string;
  secret: string;
  kind: 'created' | 'rotated';
}

/** A value shown once, with a copy button (`<testId>-copy`); also the webhook secret's dialog. */
export function SecretValue({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <div>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginTop: 4 }}>
        <Typography.Text
          code
          style={{ flex: 1, fontSize: 15, padding: '4px 8px', wordBreak: 'break-all' }}
          data-testid={testId}
        >
          {value}
        </Typography.Text>
        <Typography.Text
          copyable={{
            text: value,
            icon: [
              <Button key="copy" size="small" icon={<CopyOutlined />} data-testid={`${testId}-copy`}>
                {t('openApi.secret.copy')}
              </Button>,
              <Button key="copied" size="small" icon={<CheckOutlined />}>
                {t('openApi.secret.copied')}
              </Button>,
            ],
            tooltips: false,
            onCopy: () => notifySuccess(t('openApi.secret.copyOk', { what: label })),
          }}
        />
      </div>
    </div>
  );
}

/**
 * The frame of a dialog showing a secret the server answers only once: it closes only through its
 * button, and the page forgets the secret when it does, so it is taken out at once (no closing
 * animation that would keep the secret on the page). Ends with the "copy it now" warning.
 */
export function ShownOnceModal({
  title,
  testId,
  closeTestId,
  hint,
  onClose,
  children,
}: {
  title: string;
  testId: string;
  closeTestId: string;
  /** The warning's description: where the secret is used. */
  hint: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      closable={false}
      maskClosable={false}
      keyboard={false}
      width={640}
      footer={
        <Button type="primary" onClick={onClose} data-testid={closeTestId}>
          {t('openApi.secret.done')}
        </Button>
      }
      destroyOnHidden
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid={testId}>
        {children}
        <Alert type="warning" showIcon title={t('openApi.secret.warning')} description={hint} />
      </Space>
    </Modal>
  );
}

/**
 * The key id and secret right after a record is created or its secret rotated: the server keeps
 * the secret encrypted and never answers it again, so this is the one chance to copy it.
 */
export function SecretOnceDialog({ issued, onClose }: { issued: IssuedSecret | null; onClose: () => void }) {
  const { t } = useTranslation();
  if (!issued) return null;
  return (
    <ShownOnceModal
      title={issued.kind === 'rotated' ? t('openApi.secret.rotatedTitle') : t('openApi.secret.createdTitle')}
      testId="api-secret-dialog"
      closeTestId="api-secret-close"
      hint={t('openApi.secret.warningHint')}
      onClose={onClose}
    >
      <Typography.Text>{t('openApi.secret.for', { name: issued.name })}</Typography.Text>
      <SecretValue label={t('openApi.keyId')} value={issued.keyId} testId="api-key-id" />
      <SecretValue label={t('openApi.secret.secret')} value={issued.secret} testId="api-secret" />
    </ShownOnceModal>
  );
}
