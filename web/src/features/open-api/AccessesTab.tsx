import { PlusOutlined } from '@ant-design/icons';
import type { ApiAccessSummary } from '@dam/contract';
import { App, Button, Empty, Input, Result, Select, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../api/showApiError';
import { AccessTable } from './AccessTable';
import { emptyStep, statusToggleRequest } from './access';
import styles from './OpenApi.module.css';
import {
  type useApiAccesses,
  type useApiEnterprises,
  useDeleteApiAccess,
  useSaveApiAccess,
} from './openApiApi';

export const ACCESS_PAGE_SIZE = 20;

/** Which records the tab lists: an enterprise, a search and a page. */
export interface AccessFilter {
  enterpriseId: string | undefined;
  keyword: string;
  pageNo: number;
}

interface Props {
  accesses: ReturnType<typeof useApiAccesses>;
  enterprises: ReturnType<typeof useApiEnterprises>;
  filter: AccessFilter;
  onFilter: (filter: AccessFilter) => void;
  onNew: () => void;
  onEdit: (record: ApiAccessSummary) => void;
  onRotate: (record: ApiAccessSummary) => void;
  onDetail: (record: ApiAccessSummary) => void;
  /** The empty page's first step: make an enterprise (on the other tab). */
  onNewEnterprise: () => void;
}

/**
 * The access records tab of /manage/api: filters, the table, and for an empty list the next step
 * (an enterprise first, then a record).
 */
export function AccessesTab({
  accesses,
  enterprises,
  filter,
  onFilter,
  onNew,
  onEdit,
  onRotate,
  onDetail,
  onNewEnterprise,
}: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const save = useSaveApiAccess();
  const remove = useDeleteApiAccess();
  const [toggling, setToggling] = useState<number | null>(null);
  const enterpriseList = enterprises.data ?? [];
  const { enterpriseId, keyword, pageNo } = filter;

  const toggle = async (record: ApiAccessSummary, on: boolean) => {
    setToggling(record.id);
    try {
      await save.mutateAsync(statusToggleRequest(record, on));
      void message.success(
        on ? t('openApi.enabledOk', { name: record.name }) : t('openApi.disabledOk', { name: record.name }),
      );
    } catch (error) {
      showApiError(error);
    } finally {
      setToggling(null);
    }
  };

  const deleteAccess = async (record: ApiAccessSummary) => {
    try {
      await remove.mutateAsync(record.id);
      void message.success(t('common.deleteOk'));
      if (accesses.data && accesses.data.list.length === 1 && pageNo > 1)
        onFilter({ ...filter, pageNo: pageNo - 1 });
    } catch (error) {
      showApiError(error);
    }
  };

  const filtered = Boolean(enterpriseId || keyword);
  const step =
    filtered || !accesses.data || !enterprises.data
      ? null
      : emptyStep(enterpriseList.length, accesses.data.total);
  const noEnterprise = enterprises.isSuccess && enterpriseList.length === 0;

  const createButton = (testId: string) => (
    <Tooltip title={noEnterprise ? t('openApi.createEnterpriseFirst') : undefined}>
      <Button
        type="primary"
        icon={<PlusOutlined />}
        disabled={noEnterprise}
        onClick={onNew}
        data-testid={testId}
      >
        {t('openApi.createAccess')}
      </Button>
    </Tooltip>
  );

  const emptyText =
    step === 'enterprise' ? (
      <Empty description={t('openApi.emptyTitle')} data-testid="api-accesses-empty">
        <Typography.Paragraph type="secondary">{t('openApi.emptyEnterpriseHint')}</Typography.Paragraph>
        <Button type="primary" onClick={onNewEnterprise} data-testid="api-empty-to-enterprises">
          {t('openApi.createEnterprise')}
        </Button>
      </Empty>
    ) : step === 'record' ? (
      <Empty description={t('openApi.emptyTitle')} data-testid="api-accesses-empty">
        <Typography.Paragraph type="secondary">{t('openApi.emptyRecordHint')}</Typography.Paragraph>
        {createButton('api-empty-new')}
      </Empty>
    ) : (
      <Empty description={t('openApi.noMatch')} />
    );

  if (accesses.isError && !accesses.data)
    return (
      <Result
        status="warning"
        title={t('openApi.loadFailed')}
        subTitle={accesses.error.message}
        extra={<Button onClick={() => void accesses.refetch()}>{t('common.retry')}</Button>}
        data-testid="api-accesses-error"
      />
    );
  return (
    <>
      <div className={styles.toolbar}>
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          value={enterpriseId}
          onChange={(value: string | undefined) => onFilter({ ...filter, enterpriseId: value, pageNo: 1 })}
          placeholder={t('openApi.allEnterprises')}
          style={{ width: 220 }}
          options={enterpriseList.map((enterprise) => ({
            value: enterprise.enterpriseId,
            label: enterprise.name,
          }))}
          aria-label={t('openApi.allEnterprises')}
          data-testid="api-filter-enterprise"
        />
        <Input.Search
          allowClear
          maxLength={50}
          placeholder={t('openApi.search')}
          onSearch={(text) => onFilter({ ...filter, keyword: text.trim(), pageNo: 1 })}
          style={{ width: 300 }}
          data-testid="api-filter-keyword"
        />
        <div style={{ flex: 1 }} />
        {createButton('api-access-new')}
      </div>
      <AccessTable
        records={accesses.data?.list ?? []}
        total={accesses.data?.total ?? 0}
        loading={accesses.isPending || accesses.isFetching}
        pageNo={pageNo}
        pageSize={ACCESS_PAGE_SIZE}
        onPage={(next) => onFilter({ ...filter, pageNo: next })}
        emptyText={emptyText}
        actions={{
          onDetail,
          toggling,
          onToggle: (record, on) => void toggle(record, on),
          onEdit,
          onRotate,
          onDelete: deleteAccess,
          deleting: remove.isPending,
        }}
      />
    </>
  );
}
