import {
  type ComposeArticleResult,
  type ComposeArticleStatus,
  parseLanguage,
  ruleSlotName,
} from '@dam/contract';
import { Image, Space, type TableColumnsType, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { STATUS_COLOURS } from './JobCounts';

/**
 * The columns of a job's article table: position, article, status, first slice, slices and what
 * went wrong. `labels` names the template's slots in warnings.
 */
export function useArticleColumns(
  labels: Readonly<Record<string, string>> | undefined,
): TableColumnsType<ComposeArticleResult> {
  const { t, i18n } = useTranslation();
  const lang = parseLanguage(i18n.language);
  return [
    { title: '#', dataIndex: 'position', width: 50, render: (p: number) => p + 1 },
    { title: t('composite.compose.artNum'), dataIndex: 'artNum', width: 160 },
    {
      title: t('composite.progress.status'),
      dataIndex: 'status',
      width: 110,
      render: (s: ComposeArticleStatus) => (
        <Tag color={STATUS_COLOURS[s]} data-testid="article-status" data-status={s}>
          {t(`composite.articleStatus.${s}`)}
        </Tag>
      ),
    },
    {
      title: t('composite.progress.preview'),
      width: 90,
      render: (_, row) => {
        const first = row.outputs.find((o) => o.kind === 'slice' && o.index === 1) ?? row.outputs[0];
        return first?.thumbUrl ? <Image src={first.thumbUrl} width={60} alt="" /> : null;
      },
    },
    {
      title: t('composite.progress.slices'),
      width: 170,
      render: (_, row) =>
        row.sliceCount !== null
          ? t('composite.progress.sliceCount', { count: row.sliceCount, height: row.pageHeight ?? 0 })
          : '—',
    },
    {
      title: t('composite.progress.details'),
      render: (_, row) => (
        <Space orientation="vertical" size={2}>
          {row.missing.length > 0 && (
            <span>
              {t('composite.progress.missing')}{' '}
              {row.missing.map((m) => (
                <Tag key={m.slot} color="red">
                  {m.rule.kind === 'nth' ? ruleSlotName(m.rule, { lang }) : m.viewName}
                </Tag>
              ))}
            </span>
          )}
          {row.warnings.map((warning, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: warnings have no identity; the list is fixed once shown
            <Typography.Text key={index} type="warning" style={{ fontSize: 12 }}>
              {t(`composite.warning.${warning.code}`, {
                slot: warning.slot ? (labels?.[warning.slot] ?? warning.slot) : '',
                detail: warning.detail ?? '',
              })}
            </Typography.Text>
          ))}
          {row.error && <Typography.Text type="danger">{row.error}</Typography.Text>}
        </Space>
      ),
    },
  ];
}
