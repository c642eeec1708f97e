import { Navigate, useSearchParams } from 'react-router';
import { HOME_PATH } from '../../app/navigation';
import { SearchResultsPage } from './SearchResultsPage';
import { readSearch } from './searchUrl';

/** `/`: the results of a global search when the URL carries one (SPEC §2), otherwise all files. */
export function HomeIndex() {
  const [params] = useSearchParams();
  const search = readSearch(params);
  // A new search is a new page: its own selection, sort and scroll position.
  return search ? (
    <SearchResultsPage
      key={`${params.get('search')}${params.get('colour')}${params.get('colourTolerance')}`}
      content={search}
    />
  ) : (
    <Navigate to={HOME_PATH} replace />
  );
}
