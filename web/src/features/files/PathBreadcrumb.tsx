import { LIMITS } from '@dam/contract';
import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/**
 * SPEC §2: the first item is "all files" (to /); deeper than 6 levels, the middle collapses into an
 * ellipsis whose menu still reaches every level.
 */
export function PathBreadcrumb({ trail }: { trail: Array<{ id: number; name: string }> }) {
  const { t } = useTranslation();
  const link = (entry: { id: number; name: string }) => (
    <Link to={`/allfiles/${entry.id}`}>{entry.name}</Link>
  );
  const collapse = trail.length > LIMITS.breadcrumbCollapseAbove;
  const hidden = collapse ? trail.slice(0, trail.length - 3) : [];
  const shown = collapse ? trail.slice(-3) : trail;
  const items = [
    { key: 'top', title: <Link to="/">{t('files.topLevel')}</Link> },
    ...(collapse
      ? [
          {
            key: 'more',
            title: '…',
            menu: { items: hidden.map((entry) => ({ key: String(entry.id), label: link(entry) })) },
          },
        ]
      : []),
    ...shown.map((entry, index) => ({
      key: String(entry.id),
      title:
        index === shown.length - 1 ? <span data-testid="current-folder">{entry.name}</span> : link(entry),
    })),
  ];
  return <Breadcrumb items={items} data-testid="breadcrumb" />;
}
