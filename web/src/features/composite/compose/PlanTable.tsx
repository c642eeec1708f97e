import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { FunctionCode, type MakerPlan, type TemplateDetail } from '@dam/contract';
import { Alert, Button, Card, Space, Table, type TableColumnsType, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { holdsCodes } from '../../../auth/guard';
import { functionCodesOf, useCurrentUser } from '../../../auth/useCurrentUser';
import { type Overrides, setOverride } from '../overrides';
import { ArticleSwap } from './ArticleSwap';

/** Which articles can be rendered and which views they miss; a row opens its page to swap slots. */
export function PlanTable({
  plan,
  detail,
  overrides,
  onOverrides,
  onRender,
}: {
  plan: MakerPlan;
  detail: TemplateDetail;
  overrides: Overrides;
  onOverrides: (overrides: Overrides) => void;
  onRender: () => void;
}) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const readsCompleteness = holdsCodes(functionCodesOf(user.data), [FunctionCode.data]);
  const complete = plan.articles.filter((a) => a.complete).length;
  const columns: TableColumnsType<MakerPlan['articles'][number]> = [
    { title: t('composite.compose.artNum'), dataIndex: 'artNum', width: 180 },
    {
      title: t('composite.compose.name'),
      dataIndex: 'skuName',
      render: (name: string | null) => name ?? '—',
    },
    {
      title: t('composite.compose.state'),
      render: (_, row) =>
        row.complete ? (
          <Space>
            <CheckCircleFilled style={{ color: '#52c41a' }} data-testid="plan-complete" />
            {overrides[row.artNum] && (
              <Tag color="orange">
                {t('composite.compose.swapped', { count: Object.keys(overrides[row.artNum] ?? {}).length })}
              </Tag>
            )}
          </Space>
        ) : (
          <Space wrap size={4}>
            <CloseCircleFilled style={{ color: '#ff4d4f' }} data-testid="plan-missing" />
            {row.missing.map((slot) => (
              <Tag key={slot.slot} color="red">
                {readsCompleteness ? (
                  <Link to={`/manage/completeness?artNum=${encodeURIComponent(row.artNum)}`}>
                    {slot.viewName}
                  </Link>
                ) : (
                  slot.viewName
                )}
              </Tag>
            ))}
          </Space>
        ),
    },
  ];
  return (
    <Card
      size="small"
      title={t('composite.compose.planTitle', { complete, total: plan.articles.length })}
      extra={
        <Button
          type="primary"
          disabled={plan.articles.length === 0}
          onClick={onRender}
          data-testid="compose-render"
        >
          {t('composite.compose.render')}
        </Button>
      }
    >
      {plan.unmatched.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 8 }}
          title={t('composite.compose.unmatched', {
            count: plan.unmatched.length,
            list: plan.unmatched.slice(0, 20).join(', '),
          })}
          data-testid="compose-unmatched"
        />
      )}
      <Table
        rowKey="artNum"
        size="small"
        columns={columns}
        dataSource={plan.articles}
        pagination={plan.articles.length > 20 ? { pageSize: 20 } : false}
        expandable={{
          expandedRowRender: (row) => (
            <ArticleSwap
              detail={detail}
              artNum={row.artNum}
              mine={overrides[row.artNum]}
              onChoose={(slot, itemId, ruleChoice) =>
                onOverrides(setOverride(overrides, row.artNum, slot, itemId, ruleChoice))
              }
            />
          ),
        }}
        data-testid="compose-plan"
      />
    </Card>
  );
}
