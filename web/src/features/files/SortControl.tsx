import { RankStatus, SortField } from '@dam/contract';
import { Select, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { initialRankOf, type ListingSort, storedListingSort, storeListingSort } from '../../api/listingSort';
import { useCurrentUser } from '../../auth/useCurrentUser';
import { SortToggle } from '../../ui/ListControls';

/** The label of the toggle in each state, by field (names keep their SPEC §2 labels). */
function useSortLabels(by: SortField): { up: string; down: string } {
  const { t } = useTranslation();
  switch (by) {
    case SortField.uploaded:
      return { up: t('files.sortUpBy.uploaded'), down: t('files.sortDownBy.uploaded') };
    case SortField.modified:
      return { up: t('files.sortUpBy.modified'), down: t('files.sortDownBy.modified') };
    case SortField.size:
      return { up: t('files.sortUpBy.size'), down: t('files.sortDownBy.size') };
    case SortField.type:
      return { up: t('files.sortUpBy.type'), down: t('files.sortDownBy.type') };
    default:
      return { up: t('files.sortUp'), down: t('files.sortDown') };
  }
}

/** The listing's order, remembered per user in this browser (issue 39). */
export function useListingSort(): [ListingSort, (sort: ListingSort) => void] {
  const { data: user } = useCurrentUser();
  const [sort, setSort] = useState<ListingSort>(() => storedListingSort(user?.id));
  useEffect(() => setSort(storedListingSort(user?.id)), [user?.id]);
  const change = (next: ListingSort) => {
    setSort(next);
    if (user) storeListingSort(user.id, next);
  };
  return [sort, change];
}

/** What to sort by (name, upload time, last change, size, type) and the SPEC §2 toggle. */
export function SortControl({
  sort,
  onChange,
}: {
  sort: ListingSort;
  onChange: (sort: ListingSort) => void;
}) {
  const { t } = useTranslation();
  const labels = useSortLabels(sort.by);
  const options = [
    { value: SortField.name, label: t('files.sortFields.name') },
    { value: SortField.uploaded, label: t('files.sortFields.uploaded') },
    { value: SortField.modified, label: t('files.sortFields.modified') },
    { value: SortField.size, label: t('files.sortFields.size') },
    { value: SortField.type, label: t('files.sortFields.type') },
  ];
  return (
    <Space.Compact>
      <Select<SortField>
        value={sort.by}
        options={options}
        onChange={(by) =>
          onChange({ by, rank: sort.rank === RankStatus.normal ? initialRankOf(by) : sort.rank })
        }
        aria-label={t('files.sortBy')}
        popupMatchSelectWidth={false}
        style={{ minWidth: 96 }}
        data-testid="sort-field"
      />
      <SortToggle sort={sort.rank} labels={labels} onChange={(rank) => onChange({ ...sort, rank })} />
    </Space.Compact>
  );
}
