import { ArrowLeftOutlined } from '@ant-design/icons';
import {
  REPORT_BUCKETS,
  REPORT_COLUMNS,
  REPORT_DIMENSIONS,
  REPORT_PERIOD_MAX_DAYS,
  type ReportBucket,
  type ReportColumn,
  type ReportDimension,
  type ReportRow,
} from '@dam/contract';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Row,
  Segmented,
  Select,
  Space,
  Table,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '../../ui/ExportButton';
import { formatDate, formatSize } from '../../ui/format';
import { breakdownOption, isBytes, METRIC_COLORS, rowLabel, trendOption } from './chartOptions';
import { EChart } from './EChart';
import {
  PERIOD_PRESETS,
  type PeriodPreset,
  periodProblem,
  presetRange,
  type ReportForm,
  suggestedBucket,
  toReportRequest,
} from './period';
import { saveReportExport, useDataReport } from './reportsApi';

const formatFigure = (column: ReportColumn, value: number) =>
  isBytes(column) ? formatSize(value) : value.toLocaleString();

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

      <Space wrap>
        <DatePicker.RangePicker
          allowClear={false}
          value={form.range}
          onChange={(range) => {
            if (range?.[0] && range[1]) setRange([range[0], range[1]]);
          }}
          data-testid="report-range"
        />
        <Select<PeriodPreset | null>
          value={null}
          placeholder={t('reports.presets')}
          style={{ width: 150 }}
          onChange={(preset) =>
            preset && setRange(presetRange(preset, serverToday ? dayjs(serverToday) : dayjs()))
          }
          options={PERIOD_PRESETS.map((preset) => ({ value: preset, label: t(`reports.preset.${preset}`) }))}
          aria-label={t('reports.presets')}
          data-testid="report-preset"
        />
        <Segmented<ReportDimension>
          value={form.dimension}
          onChange={(dimension) => setForm({ ...form, dimension })}
          options={REPORT_DIMENSIONS.map((d) => ({ value: d, label: t(`reports.dimension.${d}`) }))}
          data-testid="report-dimension"
        />
        <Segmented<ReportBucket>
          value={form.bucket}
          onChange={(bucket) => setForm({ ...form, bucket })}
          options={REPORT_BUCKETS.map((b) => ({ value: b, label: t(`reports.bucket.${b}`) }))}
          data-testid="report-bucket"
        />
      </Space>

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

      <Row gutter={[12, 12]} data-testid="report-totals">
        {REPORT_COLUMNS.map((column) => (
          <Col key={column} xs={12} sm={8} md={6} xl={3}>
            {/* A long name ("Share downloads" at 1366 px) wraps rather than being cut; the row's cards
                stretch to the tallest so the figures stay aligned. */}
            <Card
              size="small"
              style={{ height: '100%' }}
              styles={{
                body: {
                  padding: '10px 12px',
                  height: '100%',
                  display: 'flex',
                  flexDirection: 'column',
                  justifyContent: 'space-between',
                },
              }}
            >
              <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block', lineHeight: 1.35 }}>
                {t(`reports.metric.${column}`)}
              </Typography.Text>
              <div
                style={{ fontSize: 22, fontWeight: 600, color: METRIC_COLORS[column], lineHeight: 1.4 }}
                data-testid={`report-total-${column}`}
              >
                {data ? formatFigure(column, data.totals[column]) : '–'}
              </div>
            </Card>
          </Col>
        ))}
      </Row>

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
        columns={[
          {
            title: t(`reports.dimension.${form.dimension}`),
            key: 'label',
            fixed: 'left',
            width: 200,
            sorter: (a, b) => rowLabel(form, a, t).localeCompare(rowLabel(form, b, t)),
            render: (_: unknown, row) =>
              form.dimension === 'department' && Number(row.key) > 0 ? (
                <Typography.Link onClick={() => drill(row)}>{rowLabel(form, row, t)}</Typography.Link>
              ) : (
                rowLabel(form, row, t)
              ),
          },
          ...REPORT_COLUMNS.map((column) => ({
            title: t(`reports.metric.${column}`),
            dataIndex: column,
            align: 'right' as const,
            width: 120,
            sorter: (a: ReportRow, b: ReportRow) => a[column] - b[column],
            defaultSortOrder: column === form.sortBy ? ('descend' as const) : undefined,
            render: (value: number) => formatFigure(column, value),
          })),
        ]}
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
