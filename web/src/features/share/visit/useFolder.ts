import type { ShareFolderResult } from '@dam/contract';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureText, sharedFolder } from './visitApi';

interface Listing {
  pages: ShareFolderResult[];
  loading: boolean;
  error: string | null;
}

/** One folder of a share (null: the link's own items), page by page ("load more"). */
export function useSharedFolder(code: string, folder: number | null) {
  const { t } = useTranslation();
  const [listing, setListing] = useState<Listing>({ pages: [], loading: true, error: null });

  const load = useCallback(
    (pageNo: number, keep: ShareFolderResult[], isLive: () => boolean = () => true) => {
      setListing({ pages: keep, loading: true, error: null });
      sharedFolder(code, folder, pageNo).then(
        (page) => isLive() && setListing({ pages: [...keep, page], loading: false, error: null }),
        (failure: unknown) =>
          isLive() &&
          setListing({ pages: keep, loading: false, error: failureText(failure, t('common.loadFailed')) }),
      );
    },
    [code, folder, t],
  );

  useEffect(() => {
    let live = true;
    load(1, [], () => live);
    return () => {
      live = false;
    };
  }, [load]);

  const last = listing.pages.at(-1);
  return {
    ...listing,
    items: listing.pages.flatMap((page) => page.list),
    breadcrumb: listing.pages[0]?.breadcrumb ?? [],
    hasMore: last?.hasMore ?? false,
    more: () => last && load(last.pageNo + 1, listing.pages),
  };
}
