import { ArrowLeftOutlined } from '@ant-design/icons';
import { REPORT_COLUMNS, REPORT_PERIOD_MAX_DAYS, type ReportColumn, type ReportRow } from '@dam/contract';
import { Alert, Button, Card, Col, Empty, Row, Select, Space, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '../../ui/ExportButton';
import { formatDate } from '../../ui/format';
import { breakdownOption, trendOption } from './chartOptions';
import { EChart } from './EChart';
import { periodProblem, presetRange, type ReportForm, suggestedBucket, toReportRequest } from './period';
import { ReportFilterBar } from './ReportFilterBar';
import { ReportTotals } from './ReportTotals';
import { reportColumns } from './reportColumns';
import { saveReportExport, useDataReport } from './reportsApi';

/**
 * /manage/data-table (code 6): uploads, downloads, views, shares, share visits and storage of the
 * caller's department subtree over a period, as a trend, a breakdown and a sortable table, exported
 * to Excel. Clicking a department drills into it.
 */
export function DataReportPage() {
  const { t } = useTranslation();
  const [form, setForm] = useState<ReportForm>(() => {
    const range = presetRange('last30');
    return { range, dimension: 'department', bucket: suggestedBucket(range), sortBy: 'uploads', dept: null };
  });
  const problem = periodProblem(form.range);
  const request = toReportRequest(form);
  const report = useDataReport(request, problem === null);
  // Figures of an earlier period are not shown under a period that cannot be asked for.
  const data = problem === null ? report.data : undefined;

  // The days are the server's business days: once it has said which day today is there, the default
  // period and the presets end on it, not on the browser's own date (tomorrow in Shanghai is still
  // today in UTC until 16:00).
  const serverToday = report.data?.today;
  const [rangePicked, setRangePicked] = useState(false);
  useEffect(() => {
    if (!serverToday || rangePicked || form.range[1].format('YYYY-MM-DD') === serverToday) return;
    const range = presetRange('last30', dayjs(serverToday));
    setForm((current) => ({ ...current, range, bucket: suggestedBucket(range) }));
  }, [serverToday, rangePicked, form.range]);

  const trend = useMemo(() => (data ? trendOption(data, t) : null), [data, t]);
  const breakdown = useMemo(
    () => (data ? breakdownOption(data, form.sortBy, t) : null),
    [data, form.sortBy, t],
  );

  const setRange = (range: [Dayjs, Dayjs]) => {
    setRangePicked(true);
    setForm({ ...form, range, bucket: suggestedBucket(range) });
  };
  const drill = (row: Pick<ReportRow, 'key' | 'label'>) => {
    const id = Number(row.key);
    if (form.dimension === 'department' && id > 0)
      setForm({ ...form, dept: { id, name: row.label }, dimension: 'user' });
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="data-report-page">
      <Space wrap align="center" style={{ justifyContent: 'space-between', width: '100%' }}>
        <Space wrap align="center">
          {form.dept && (
            <Button
              icon={<ArrowLeftOutlined />}
              onClick={() => setForm({ ...form, dept: null, dimension: 'department' })}
              data-testid="report-back"
            >
              {t('reports.back')}
            </Button>
          )}
          <Typography.Text strong data-testid="report-scope">
            {form.dept
              ? t('reports.scopeOf', { name: form.dept.name })
              : data?.scope
                ? t('reports.scopeOf', { name: data.scope.name })
                : t('reports.scopeAll')}
          </Typography.Text>
        </Space>
        <ExportButton
          type="primary"
          disabled={problem !== null}
          save={() => saveReportExport(request)}
          label={t('reports.export')}
          testId="report-export"
        />
      </Space>

      <ReportFilterBar form={form} onChange={setForm} onRange={setRange} serverToday={serverToday} />

      {problem && (
        <Alert
          type="error"
          showIcon
          data-testid="report-period-error"
          title={
            problem === 'tooLong'
              ? t('reports.periodTooLong', { max: REPORT_PERIOD_MAX_DAYS })
              : t('reports.periodOrder')
          }
        />
      )}

      <ReportTotals data={data} />

      <Row gutter={[12, 12]}>
        <Col xs={24} xl={14}>
          <Card size="small" title={t('reports.trend')}>
            {trend && <EChart option={trend} label={t('reports.trend')} testId="report-trend-chart" />}
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card
            size="small"
            title={t('reports.breakdown', { dimension: t(`reports.dimension.${form.dimension}`) })}
            extra={
              <Select<ReportColumn>
                size="small"
                value={form.sortBy}
                style={{ width: 150 }}
                onChange={(sortBy) => setForm({ ...form, sortBy })}
                options={REPORT_COLUMNS.map((c) => ({ value: c, label: t(`reports.metric.${c}`) }))}
                aria-label={t('reports.breakdown', { dimension: t(`reports.dimension.${form.dimension}`) })}
                data-testid="report-metric"
              />
            }
          >
            {breakdown &&
              (data?.rows.some((row) => row[form.sortBy] > 0) ? (
                <EChart
                  option={breakdown}
                  label={t('reports.breakdown', { dimension: t(`reports.dimension.${form.dimension}`) })}
                  testId="report-breakdown-chart"
                  onClick={({ data: clicked }) => {
                    const key = (clicked as { key?: string } | null)?.key;
                    const row = data.rows.find((r) => r.key === key);
                    if (row) drill(row);
                  }}
                />
              ) : (
                <Empty style={{ height: 288, paddingTop: 90 }} description={t('reports.empty')} />
              ))}
          </Card>
        </Col>
      </Row>

      <Table<ReportRow>
        rowKey="key"
        size="middle"
        loading={report.isFetching}
        dataSource={data?.rows ?? []}
        scroll={{ x: 1100 }}
        pagination={{ pageSize: 20, showSizeChanger: false, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={t('reports.empty')} /> }}
        data-testid="report-table"
        columns={reportColumns(form, drill, t)}
      />
      {data && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="report-footnote">
          {t('reports.footnote', { zone: data.timeZone })}{' '}
          {data.storageAsOf
            ? t('reports.storageAsOf', { time: formatDate(data.storageAsOf) })
            : t('reports.storageNotYet')}
          {data.truncated ? ` ${t('reports.truncated', { max: data.rows.length })}` : ''}
        </Typography.Text>
      )}
    </Space>
  );
}
