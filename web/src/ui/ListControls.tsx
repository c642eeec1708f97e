import {
  AppstoreOutlined,
  FilterOutlined,
  SortAscendingOutlined,
  SortDescendingOutlined,
  SwapOutlined,
  TableOutlined,
} from '@ant-design/icons';
import { RankStatus } from '@dam/contract';
import { Badge, Button, Popover, Segmented, Spin, Tooltip } from 'antd';
import { lazy, Suspense, useCallback, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { type ListingFilter, type SortState, useTagSelector } from '../api/items';
import type { FilterForm } from './FilterPanel';

// The filter's form (date pickers, tag select) loads when the filter is first opened (issue 10 item 7).
const FilterPanel = lazy(async () => ({ default: (await import('./FilterPanel')).FilterPanel }));

/** SPEC §2 sort toggle: normal → up → down → normal. */
export const nextSort = (sort: SortState): SortState =>
  sort === RankStatus.normal ? RankStatus.up : sort === RankStatus.up ? RankStatus.down : RankStatus.normal;

export function SortToggle({
  sort,
  onChange,
  labels,
}: {
  sort: SortState;
  onChange: (sort: SortState) => void;
  /** The up and down labels when the order is not by name. */
  labels?: { up: string; down: string };
}) {
  const { t } = useTranslation();
  const label =
    sort === RankStatus.up
      ? (labels?.up ?? t('files.sortUp'))
      : sort === RankStatus.down
        ? (labels?.down ?? t('files.sortDown'))
        : t('files.sortNormal');
  const icon =
    sort === RankStatus.up ? (
      <SortAscendingOutlined />
    ) : sort === RankStatus.down ? (
      <SortDescendingOutlined />
    ) : (
      <SwapOutlined rotate={90} />
    );
  return (
    <Tooltip title={label}>
      <Button icon={icon} onClick={() => onChange(nextSort(sort))} data-testid="sort-toggle" data-sort={sort}>
        {label}
      </Button>
    </Tooltip>
  );
}

export type ViewMode = 'WaterFall' | 'unWaterFall';
const VIEW_KEY = 'viewMode';

/** SPEC §3: the view mode is kept locally; non-waterfall by default. */
export function storedViewMode(): ViewMode {
  return localStorage.getItem(VIEW_KEY) === 'WaterFall' ? 'WaterFall' : 'unWaterFall';
}

const viewModeListeners = new Set<() => void>();
const subscribeViewMode = (listener: () => void) => {
  viewModeListeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    viewModeListeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
};

/**
 * The stored view mode and its setter, shared by every component that shows it (the side tabs
 * hide "latest shares" in waterfall mode the moment the toggle changes, SPEC §2).
 */
export function useViewMode(): [ViewMode, (mode: ViewMode) => void] {
  const mode = useSyncExternalStore(subscribeViewMode, storedViewMode);
  const setMode = useCallback((next: ViewMode) => {
    localStorage.setItem(VIEW_KEY, next);
    for (const listener of viewModeListeners) listener();
  }, []);
  return [mode, setMode];
}

export function ViewToggle({ mode, onChange }: { mode: ViewMode; onChange: (mode: ViewMode) => void }) {
  const { t } = useTranslation();
  return (
    <Segmented<ViewMode>
      value={mode}
      onChange={onChange}
      options={[
        { value: 'unWaterFall', icon: <TableOutlined />, label: t('files.grid') },
        { value: 'WaterFall', icon: <AppstoreOutlined />, label: t('files.waterfall') },
      ]}
      data-testid="view-toggle"
    />
  );
}

/** SPEC §3 filter content: creation and validity date ranges, and tags; a colour (issue 17); a review state (issue 43). */
export function FilterButton({
  filter,
  onChange,
}: {
  filter: ListingFilter;
  onChange: (filter: ListingFilter) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const tags = useTagSelector(open);
  const active = [
    filter.minCreatedAt,
    filter.minExpireTime,
    (filter.tagIdList?.length ?? 0) > 0 ? filter.tagIdList : undefined,
    filter.colour,
    filter.reviewState,
  ].filter(Boolean).length;
  const apply = (values: FilterForm) => {
    onChange({
      ...(values.created
        ? {
            minCreatedAt: values.created[0].format('YYYY-MM-DD'),
            maxCreatedAt: values.created[1].format('YYYY-MM-DD'),
          }
        : {}),
      ...(values.validity
        ? {
            minExpireTime: values.validity[0].format('YYYY-MM-DD'),
            maxExpireTime: values.validity[1].format('YYYY-MM-DD'),
          }
        : {}),
      ...(values.tagIdList?.length ? { tagIdList: values.tagIdList } : {}),
      ...(values.colour
        ? {
            colour: values.colour,
            ...(values.colourTolerance ? { colourTolerance: values.colourTolerance } : {}),
          }
        : {}),
      ...(values.reviewState ? { reviewState: values.reviewState } : {}),
    });
    setOpen(false);
  };
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomRight"
      content={
        <Suspense fallback={<Spin size="small" />}>
          <FilterPanel
            tags={tags}
            onApply={apply}
            onReset={() => {
              onChange({});
              setOpen(false);
            }}
          />
        </Suspense>
      }
    >
      <Badge count={active} size="small">
        <Button icon={<FilterOutlined />} data-testid="filter-button">
          {t('files.filter')}
        </Button>
      </Badge>
    </Popover>
  );
}
