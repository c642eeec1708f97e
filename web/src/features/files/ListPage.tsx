import { Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type ListKind, usePagedList } from '../../api/items';
import { useViewMode } from '../../ui/ListControls';
import { ItemBrowser } from './ItemBrowser';

const TITLES: Record<ListKind, string> = {
  recent: 'nav.recent',
  favourites: 'nav.favourites',
  uploads: 'nav.myUploads',
};
const EMPTY: Record<ListKind, string> = {
  recent: 'files.emptyRecent',
  favourites: 'files.emptyFavourites',
  uploads: 'files.emptyUploads',
};

/** SPEC §2 /rencent, /myCollect, /myUpload: the same grid over a personal list. */
export function ListPage({ kind }: { kind: ListKind }) {
  const [viewMode] = useViewMode();
  const { t } = useTranslation();
  return (
    <ItemBrowser
      listing={usePagedList(kind)}
      testId={`list-${kind}`}
      waterfall={viewMode === 'WaterFall'}
      empty={<Empty description={t(EMPTY[kind])} />}
      toolbar={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t(TITLES[kind])}
        </Typography.Title>
      }
    />
  );
}
