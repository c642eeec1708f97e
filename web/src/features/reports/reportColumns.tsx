import { REPORT_COLUMNS, type ReportRow } from '@dam/contract';
import { type TableColumnsType, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { rowLabel } from './chartOptions';
import type { ReportForm } from './period';
import { formatFigure } from './ReportTotals';

/**
 * The data report's table columns: the row's department, user or type (a department drills in on
 * click), then one sortable figure per metric, the chosen one sorted first.
 */
export function reportColumns(
  form: ReportForm,
  drill: (row: ReportRow) => void,
  t: TFunction,
): TableColumnsType<ReportRow> {
  return [
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
  ];
}
