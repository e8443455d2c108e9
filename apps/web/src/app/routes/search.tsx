import type { TWorkspace } from '@cabinet/contracts';
import { useOutletContext } from 'react-router';
import { SearchPage } from '../../features/search/components/search-page.tsx';

/** `/w/:ws/search?q=&type=&owner=&modified=&in=`: the search page, its search kept in the address. */
export function SearchRoute() {
  return <SearchPage workspace={useOutletContext<TWorkspace>()} />;
}
