import { followPages as followLinks } from '../../client/pages';
import { fetchPage, HarvestError, SourceRefusal, type FetchedPage, type RequestOptions } from './request';

/**
 * The pages of one listing, through the client's pager (src/client/pages.ts), within the
 * harvest's rules: the next page stays on the source's origin and carries no credentials,
 * and a listing that links back to a page already fetched is a failure, not an end.
 */

export interface PagerOptions extends RequestOptions {
  /** Pages in flight at once; 1 is one request at a time. */
  readonly concurrency: number;
  /** Told once when the first URL is refused and the fallback is used. */
  readonly onFallback?: (refusal: SourceRefusal) => void;
}

/**
 * Yields every page from `first` on. When the source refuses `first` with a 400 and a
 * `fallback` is given (the same listing without the page size the harvest prefers), the
 * fallback is followed instead.
 */
export function followPages(first: string, fallback: string | undefined, options: PagerOptions): AsyncGenerator<FetchedPage> {
  const origin = new URL(first).origin;
  return followLinks(first, {
    fetchPage: (url, onNext) => fetchPage(url, options, onNext),
    ahead: options.concurrency,
    ...(fallback
      ? {
          fallback: {
            url: fallback,
            when: (error) => {
              if (!(error instanceof SourceRefusal && error.status === 400)) return false;
              options.onFallback?.(error);
              return true;
            },
          },
        }
      : {}),
    check: (next) => {
      // The token and the contact go only where the operator pointed the harvest.
      const target = new URL(next);
      if (target.username || target.password)
        throw new HarvestError(
          `The source's next page carries credentials (${target.origin}${target.pathname}); the harvest sends none but its token.`,
        );
      if (target.origin !== origin)
        throw new HarvestError(`The source's next page is on another origin (${next}); the harvest stays on ${origin}.`);
    },
    onLoop: (next) => {
      throw new HarvestError(`The source's next page ${next} was already fetched: its paging loops.`);
    },
  });
}
