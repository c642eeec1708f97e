import { ALL_FUNCTION_CODES } from '@dam/contract';
import { Card, Descriptions, Flex, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { functionCodesOf, useCurrentUser } from '../../auth/useCurrentUser';
import { useHealth } from './api';

/** SPEC §2 /about: what the product is, its version, and what the signed-in user may do. */
export function AboutPage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  const health = useHealth();
  const codes = functionCodesOf(user);
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%', maxWidth: 880 }}>
      <Card>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('app.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ fontSize: 15, marginBottom: 0 }}>
          {t('about.description')}
        </Typography.Paragraph>
      </Card>
      <Card title={t('about.title')}>
        <Descriptions column={1} bordered size="middle">
          <Descriptions.Item label={t('about.version')}>{health.data?.version ?? '…'}</Descriptions.Item>
          <Descriptions.Item label={t('about.server')}>
            {health.isError ? (
              <Tag color="error">{t('common.loadFailed')}</Tag>
            ) : (
              <Tag color="success">{t('about.serverOk')}</Tag>
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('about.database')}>{health.data?.database ?? '…'}</Descriptions.Item>
          <Descriptions.Item label={t('about.signedInAs')}>
            {user?.name} {user?.deptname ? `· ${user.deptname}` : ''}
          </Descriptions.Item>
          <Descriptions.Item label={t('account.permissions')}>
            {codes.length === 0 ? (
              t('account.noPermissions')
            ) : (
              <Flex wrap gap={6}>
                {ALL_FUNCTION_CODES.filter((c) => codes.includes(c)).map((code) => (
                  <Tag key={code} color="blue">
                    {t(`permission.code${code}`)}
                  </Tag>
                ))}
              </Flex>
            )}
          </Descriptions.Item>
        </Descriptions>
      </Card>
    </Space>
  );
}
