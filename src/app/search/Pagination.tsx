import { Link } from 'react-router';
import { queryString } from '../../client/urls';
import type { Deployment } from '../../deployments/schema';
import type { PageRel } from '../../formats/link-header';
import type { NavigationState } from '../shell/navigation-state';
import { appEntriesForLink, type Paging } from './paging';
import type { Entries } from './query-params';

const relNames: Record<PageRel, string> = {
  first: 'First page',
  prev: 'Previous page',
  next: 'Next page',
  last: 'Last page',
};

/**
 * Links as the server's Link header offers them, and where we are. A link back to the page
 * on screen is left out: on page 1 there is no First or Previous, on the last no Next or Last.
 */
export function Pagination({ deployment, entries, paging }: { deployment: Deployment; entries: Entries; paging: Paging }) {
  const link = (rel: PageRel) => {
    const url = paging.links[rel];
    if (!url) return null;
    if ((rel === 'first' || rel === 'prev') && paging.atStart) return null;
    if ((rel === 'next' || rel === 'last') && paging.atEnd) return null;
    const state: NavigationState = { apiUrl: url };
    return (
      <li>
        <Link to={`/${deployment.slug}${queryString(appEntriesForLink(entries, url))}`} state={state} rel={rel === 'prev' ? 'prev' : rel === 'next' ? 'next' : undefined}>
          {relNames[rel]}
        </Link>
      </li>
    );
  };
  return (
    <nav aria-label="Pagination" className="pagination">
      <ul>
        {link('first')}
        {link('prev')}
        <li>
          <span aria-current="page" className="pagination__current">
            Page {paging.current.toLocaleString('en')} of {paging.last.toLocaleString('en')}
          </span>
        </li>
        {link('next')}
        {link('last')}
      </ul>
    </nav>
  );
}
