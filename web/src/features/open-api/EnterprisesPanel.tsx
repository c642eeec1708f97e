import { PlusOutlined } from '@ant-design/icons';
import type { ApiEnterprise, OpenCallInfo } from '@dam/contract';
import { Alert, App, Button, Empty, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { showApiError } from '../../api/showApiError';
import { EnterpriseDialog } from './EnterpriseDialog';
import { enterpriseColumns } from './enterpriseColumns';
import { useDeleteApiEnterprise } from './openApiApi';

/**
 * The enterprises (SPEC §7 getEnterpriseId, updateEnterpriseId, deleteEnterpriseId,
 * updateOpenApiToEnterpriseId): each access record belongs to one, and may make the calls its
 * enterprise allows, at most its rate per minute.
 */
export function EnterprisesPanel({
  enterprises,
  loading,
  error,
  calls,
  openNew = 0,
}: {
  enterprises: ApiEnterprise[];
  loading: boolean;
  /** Why the list could not be read (shown above the table). */
  error: string | null;
  calls: OpenCallInfo[];
  /** Changed (counted up) to open the new-enterprise dialog: the access tab's empty state asks for it. */
  openNew?: number;
}) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [dialog, setDialog] = useState<ApiEnterprise | 'new' | null>(null);
  const remove = useDeleteApiEnterprise();
  useEffect(() => {
    if (openNew > 0) setDialog('new');
  }, [openNew]);

  const deleteEnterprise = async (enterprise: ApiEnterprise) => {
    try {
      await remove.mutateAsync(enterprise.enterpriseId);
      void message.success(t('common.deleteOk'));
    } catch (error) {
      // Still used by records (SEOA_05): said in a dialog that stays until read, with what to do.
      if (error instanceof ApiError && error.code === 'SEOA_05')
        modal.warning({
          title: t('openApi.enterpriseInUse', { name: enterprise.name }),
          content: error.desc,
          okText: t('common.ok'),
        });
      else showApiError(error);
    }
  };

  return (
    <div data-testid="api-enterprises">
      <div style={{ display: 'flex', alignItems: 'center', gap: 16, marginBottom: 12, flexWrap: 'wrap' }}>
        <Typography.Text type="secondary" style={{ flex: 1, minWidth: 240 }}>
          {t('openApi.enterprisesIntro')}
        </Typography.Text>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setDialog('new')}
          data-testid="api-enterprise-new"
        >
          {t('openApi.createEnterprise')}
        </Button>
      </div>
      {error && (
        <Alert
          type="error"
          showIcon
          title={t('openApi.enterprisesLoadFailed')}
          description={error}
          style={{ marginBottom: 12 }}
        />
      )}
      <Table<ApiEnterprise>
        rowKey="enterpriseId"
        loading={loading}
        dataSource={enterprises}
        pagination={false}
        scroll={{ x: 900 }}
        locale={{
          emptyText: (
            <Empty description={t('openApi.noEnterprises')} data-testid="api-enterprises-empty">
              <Typography.Paragraph type="secondary">{t('openApi.noEnterprisesHint')}</Typography.Paragraph>
            </Empty>
          ),
        }}
        onRow={(enterprise) => ({ 'data-enterprise': enterprise.enterpriseId }) as object}
        columns={enterpriseColumns({
          t,
          onEdit: setDialog,
          onDelete: deleteEnterprise,
          deleting: remove.isPending,
        })}
      />
      {dialog !== null && (
        <EnterpriseDialog
          enterprise={dialog === 'new' ? null : dialog}
          calls={calls}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}
