import { LIMITS, type MetadataFilter, RankStatus, SearchFileType, SearchType } from '@dam/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { searchUrl } from '../search';

/**
 * A value of the metadata section (creator, camera, a keyword) as a link to the global search for
 * it (issue 42 item 2). A creator or camera is searched as a substring, so a long one is cut to the
 * search's length and still finds its file.
 */
export function SearchFor({ field, value }: { field: 'creator' | 'camera' | 'keyword'; value: string }) {
  const { t } = useTranslation();
  const filter: MetadataFilter = {
    [field]: field === 'keyword' ? value : value.slice(0, LIMITS.searchChars),
  };
  const to = searchUrl({
    fileType: SearchFileType.all,
    query: '',
    rankStatus: RankStatus.up,
    searchType: SearchType.title,
    artNumList: [],
    nameList: [],
    ...filter,
  });
  return (
    <Link to={to} title={t('search.metadata.searchFor', { value })} data-testid={`metadata-search-${field}`}>
      {value}
    </Link>
  );
}
