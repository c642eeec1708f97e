import { FilterOutlined } from '@ant-design/icons';
import { METADATA_TEXT_FILTERS, type MetadataFilter } from '@dam/contract';
import { Button, Popover, Spin, Tooltip } from 'antd';
import { lazy, Suspense, useRef } from 'react';
import { useTranslation } from 'react-i18next';

// The form and its date picker load when the button is first clicked (the home page's budget).
const MetadataSearchPanel = lazy(async () => ({
  default: (await import('./MetadataSearchPanel')).MetadataSearchPanel,
}));

/** The search bar's "metadata" button (issue 42 item 2): opens the filter form; counts the fields set. */
export function MetadataSearchButton({
  filter,
  open,
  onOpenChange,
  onSearch,
}: {
  filter: MetadataFilter;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSearch: (filter: MetadataFilter) => void;
}) {
  const { t } = useTranslation();
  const button = useRef<HTMLButtonElement>(null);
  // As the results page's chips count them: the capture days are one.
  const count =
    [...METADATA_TEXT_FILTERS, 'keyword' as const].filter((key) => filter[key]).length +
    (filter.capturedFrom || filter.capturedTo ? 1 : 0);
  const label = count > 0 ? t('search.metadata.active', { count }) : t('search.metadata.open');
  return (
    <Popover
      trigger="click"
      placement="bottomLeft"
      open={open}
      onOpenChange={onOpenChange}
      title={t('search.metadata.title')}
      destroyOnHidden
      content={
        <Suspense fallback={<Spin size="small" />}>
          <MetadataSearchPanel
            filter={filter}
            onSearch={onSearch}
            onClose={() => {
              onOpenChange(false);
              button.current?.focus();
            }}
          />
        </Suspense>
      }
    >
      {/* Not over the popover's title while it is open. */}
      <Tooltip title={label} open={open ? false : undefined}>
        <Button
          ref={button}
          aria-label={label}
          aria-expanded={open}
          icon={<FilterOutlined />}
          // Active: the primary colour and how many filters (not Ant Design's Badge: the home page's weight).
          {...(count > 0 ? { color: 'primary' as const, variant: 'outlined' as const } : {})}
          data-testid="search-metadata"
        >
          {count > 0 ? count : null}
        </Button>
      </Tooltip>
    </Popover>
  );
}
