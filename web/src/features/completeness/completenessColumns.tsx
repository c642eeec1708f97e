import { CheckCircleFilled, UploadOutlined } from '@ant-design/icons';
import type { CompletenessColumn, CompletenessRow, CompletenessSeason } from '@dam/contract';
import { Button, Progress, Space, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';

/** A column's key and test id: `front-jpg`; a view without a code by its id, `v6-psd`. */
export const columnKey = (c: CompletenessColumn) => `${c.code ?? `v${c.viewId}`}-${c.format}`;

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 100));

/**
 * The article table's columns: number, season, category, one per expected view and format (a tick,
 * or a button that uploads the missing file) and the article's progress.
 */
export function articleColumns(
  t: TFunction,
  columns: CompletenessColumn[],
  openMissing: (row: CompletenessRow, column: CompletenessColumn) => void,
): TableColumnsType<CompletenessRow> {
  return [
    {
      title: t('completeness.artNum'),
      dataIndex: 'artNum',
      fixed: 'left',
      width: 150,
      render: (artNum: string, row) => (
        <Tooltip title={row.name}>
          <Typography.Text strong data-testid="completeness-art-num">
            {artNum}
          </Typography.Text>
        </Tooltip>
      ),
    },
    {
      title: t('completeness.season'),
      dataIndex: 'season',
      width: 100,
      render: (s: string | null) => s ?? '—',
    },
    {
      title: t('completeness.category'),
      dataIndex: 'category',
      width: 100,
      render: (s: string | null) => s ?? '—',
    },
    ...columns.map((column, index) => ({
      key: columnKey(column),
      width: 92,
      align: 'center' as const,
      title: (
        <Space orientation="vertical" size={0} style={{ lineHeight: 1.2 }}>
          <span>{column.viewName}</span>
          <Tag style={{ marginInlineEnd: 0 }}>{column.format.toUpperCase()}</Tag>
        </Space>
      ),
      render: (_v: unknown, row: CompletenessRow) =>
        row.cells[index] ? (
          <Tooltip title={t('completeness.present')}>
            <CheckCircleFilled
              style={{ color: '#52c41a', fontSize: 18 }}
              data-testid={`cell-${row.artNum}-${columnKey(column)}`}
              data-state="present"
              aria-label={t('completeness.present')}
            />
          </Tooltip>
        ) : (
          <Tooltip
            title={t('completeness.uploadHint', {
              view: column.viewName,
              format: column.format.toUpperCase(),
              path: row.target?.path ?? '/',
            })}
          >
            <Button
              size="small"
              danger
              type="dashed"
              icon={<UploadOutlined />}
              onClick={() => openMissing(row, column)}
              data-testid={`cell-${row.artNum}-${columnKey(column)}`}
              data-state="missing"
              aria-label={t('completeness.missing')}
            />
          </Tooltip>
        ),
    })),
    {
      title: t('completeness.progress'),
      key: 'progress',
      fixed: 'right',
      width: 130,
      render: (_v, row) => (
        <Tooltip title={`${row.present} / ${row.expected}`}>
          <Progress
            percent={percent(row.present, row.expected)}
            size="small"
            status={row.present >= row.expected ? 'success' : 'normal'}
            data-testid={`progress-${row.artNum}`}
          />
        </Tooltip>
      ),
    },
  ];
}

/** The per-season counts' columns. */
export function seasonColumns(t: TFunction): TableColumnsType<CompletenessSeason> {
  return [
    {
      title: t('completeness.season'),
      dataIndex: 'season',
      render: (s: string | null) =>
        s ?? <Typography.Text type="secondary">{t('completeness.noSeason')}</Typography.Text>,
    },
    { title: t('completeness.articles'), dataIndex: 'skuCount', width: 110, align: 'right' },
    { title: t('completeness.completeArticles'), dataIndex: 'completeCount', width: 130, align: 'right' },
    {
      title: t('completeness.completeRate'),
      key: 'rate',
      width: 200,
      render: (_v, s) => <Progress percent={percent(s.completeCount, s.skuCount)} size="small" />,
    },
    {
      title: t('completeness.viewsPresent'),
      key: 'cells',
      width: 160,
      align: 'right',
      render: (_v, s) => `${s.cellsPresent} / ${s.cellsExpected}`,
    },
  ];
}
