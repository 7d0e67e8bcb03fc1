import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { queryString } from '../../client/urls';
import type { Deployment } from '../../deployments/schema';
import type { PageRel } from '../../formats/link-header';
import type { NavigationState } from '../navigation/navigation-state';
import { formatNumber } from '../ui/format';
import { appEntriesForLink, pageNumbers, pageUrl, type Paging } from './paging';
import type { Entries } from '../navigation/query-params';

const relNames: Record<PageRel, string> = {
  first: 'First page',
  prev: 'Previous page',
  next: 'Next page',
  last: 'Last page',
};

interface PaginationProps {
  readonly deployment: Deployment;
  readonly entries: Entries;
  readonly paging: Paging;
}

/**
 * Links as the server's Link header offers them, numbered pages and a jump to any page
 * made from those links' own URLs (only their `page` changed, never past rel=last), and
 * where we are. A link back to the page on screen is left out: on page 1 there is no First
 * or Previous, on the last no Next or Last.
 */
export function Pagination({ deployment, entries, paging }: PaginationProps) {
  const navigate = useNavigate();
  const target = (url: string) => ({
    to: `/${deployment.slug}${queryString(appEntriesForLink(entries, url))}`,
    state: { apiUrl: url } satisfies NavigationState,
  });
  const link = (rel: PageRel) => {
    const url = paging.links[rel];
    if (!url) return null;
    if ((rel === 'first' || rel === 'prev') && paging.atStart) return null;
    if ((rel === 'next' || rel === 'last') && paging.atEnd) return null;
    return (
      <li>
        <Link {...target(url)} rel={rel === 'prev' ? 'prev' : rel === 'next' ? 'next' : undefined}>
          {relNames[rel]}
        </Link>
      </li>
    );
  };
  const numbered = pageUrl(paging, 1) !== undefined && paging.last > 1;
  const lastUrl = pageUrl(paging, paging.last);

  return (
    <nav aria-label="Pagination" className="pagination">
      {paging.pastLast ? (
        <p className="pagination__past">
          Page {formatNumber(paging.current)} is past the last page ({formatNumber(paging.last)}).{' '}
          {lastUrl && <Link {...target(lastUrl)}>Go to page {formatNumber(paging.last)}</Link>}
        </p>
      ) : (
        <p className="pagination__current">
          Page {formatNumber(paging.current)} of {formatNumber(paging.last)}
        </p>
      )}
      <ul>
        {link('first')}
        {link('prev')}
        {numbered &&
          pageNumbers(paging.current, paging.last).map((n, index) =>
            n === 'gap' ? (
              <li key={`gap${index}`} className="pagination__gap" aria-hidden="true">
                …
              </li>
            ) : (
              <li key={n}>
                {n === paging.current ? (
                  <span aria-current="page" className="pagination__number" aria-label={`Page ${n}, current page`}>
                    {formatNumber(n)}
                  </span>
                ) : (
                  <Link {...target(pageUrl(paging, n)!)} className="pagination__number" aria-label={`Page ${n}`}>
                    {formatNumber(n)}
                  </Link>
                )}
              </li>
            ),
          )}
        {!numbered && !paging.pastLast && (
          <li>
            <span aria-current="page" className="pagination__number">
              {formatNumber(paging.current)}
            </span>
          </li>
        )}
        {link('next')}
        {link('last')}
      </ul>
      {numbered && <JumpToPage paging={paging} onJump={(url) => void navigate(target(url).to, { state: target(url).state })} />}
    </nav>
  );
}

function JumpToPage({ paging, onJump }: { paging: Paging; onJump: (url: string) => void }) {
  const inputId = useId();
  const [value, setValue] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    // The input's min and max keep the number in range; pageUrl checks again.
    const url = pageUrl(paging, Number(value));
    if (url) onJump(url);
  }
  return (
    <form className="pagination__jump" onSubmit={submit}>
      <label htmlFor={inputId}>Go to page</label>
      <input
        id={inputId}
        type="number"
        inputMode="numeric"
        min={1}
        max={paging.last}
        required
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
      <button type="submit" className="button">
        Go
      </button>
    </form>
  );
}
