import { REPORT_COLUMNS, type ReportColumn, type ReportResult } from '@dam/contract';
import { Card, Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../ui/format';
import { isBytes, METRIC_COLORS } from './chartOptions';

export const formatFigure = (column: ReportColumn, value: number) =>
  isBytes(column) ? formatSize(value) : value.toLocaleString();

/** The period's total of every metric, one card each, above the charts of the data report. */
export function ReportTotals({ data }: { data: ReportResult | undefined }) {
  const { t } = useTranslation();
  return (
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
  );
}
