import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** What a "load more" footer needs of a paged list: a TanStack infinite query fits as it is. */
export interface PagedList {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

interface Props {
  list: PagedList;
  /** The button's words (each list says "more" its own way); none where scrolling loads on. */
  label?: ReactNode;
  /** `link`: a full-width link, as under tables and card lists; `button`: a plain button. */
  look?: 'link' | 'button';
  /** The last page failed to come: a link asks again (the grids, which load on scrolling). */
  failed?: boolean;
  /** Shown while the next page comes instead of the busy button (the grids' spinner). */
  whileLoading?: ReactNode;
  /** Shown once the last page is in (else nothing). */
  end?: ReactNode;
  testId?: string;
}

/**
 * What closes a paged list: the button that fetches its next page (busy while it comes), a link
 * to ask again after a failure, or the list's end.
 */
export function LoadMoreFooter({ list, label, look = 'link', failed, whileLoading, end, testId }: Props) {
  const { t } = useTranslation();
  const loadMore = () => void list.fetchNextPage();
  if (whileLoading && list.isFetchingNextPage) return whileLoading;
  if (failed)
    return (
      <Button type="link" onClick={loadMore}>
        {t('files.loadMoreFailed')}
      </Button>
    );
  if (!list.hasNextPage) return end ?? null;
  if (label === undefined) return null;
  return (
    <Button
      {...(look === 'link' ? { block: true, type: 'link' as const } : {})}
      loading={list.isFetchingNextPage}
      onClick={loadMore}
      data-testid={testId}
    >
      {label}
    </Button>
  );
}

/** A table's `footer` with the load-more button; none (no footer row) once the last page is in. */
export function loadMoreTableFooter(list: PagedList, label: ReactNode): (() => ReactNode) | undefined {
  return list.hasNextPage ? () => <LoadMoreFooter list={list} label={label} /> : undefined;
}
