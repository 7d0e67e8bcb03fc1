import { parseLinkHeader } from '../formats/link-header';
import type { AnswerHead } from './responses';

/**
 * The pages of one listing, in order, by following `rel="next"`: page URLs are never
 * computed, so whatever paging scheme the server uses is the one followed. The export
 * downloads and the harvester page through here.
 */

/** An answer's `rel="next"` target, absolute: resolved against the URL that answered (after redirects). */
export function nextLink(head: AnswerHead): string | undefined {
  return parseLinkHeader(head.headers.get('Link'), head.url).next;
}

/** A page's next link changed between two tries of the page: the listing cannot be trusted. */
export class PagingError extends Error {
  override readonly name = 'PagingError';
  constructor(
    readonly url: string,
    readonly first: string,
    readonly then: string,
  ) {
    super(`The next page after ${url} changed between tries (${first}, then ${then}).`);
  }
}

export interface LinkedPage {
  readonly url: string;
  /** The `rel="next"` target, absolute. */
  readonly next?: string | undefined;
}

export interface FollowOptions<P extends LinkedPage> {
  /**
   * Fetches one page (retries included). It may tell `onNext` the page's next link as soon
   * as the answer's head arrives, so that the following page can be asked for meanwhile.
   */
  readonly fetchPage: (url: string, onNext: (next: string | undefined) => void) => Promise<P>;
  /**
   * Pages asked for before the consumer wants them: 0 asks for each page only when it is
   * wanted, N keeps at most N in flight or waiting to be consumed.
   */
  readonly ahead?: number;
  /** The same listing in another form (without a page size, say), followed when fetching the first URL fails so. */
  readonly fallback?: { readonly url: string; readonly when: (error: unknown) => boolean };
  /** Checks each next link before it is followed; what it throws ends the listing with that error. */
  readonly check?: (next: string) => void;
  /**
   * A next link to a page already fetched: the listing ends there, so a faulty Link header
   * cannot loop forever, unless this throws to say the listing failed.
   */
  readonly onLoop?: (next: string) => void;
  /** Aborting it ends the listing before the next request, with its reason. */
  readonly signal?: AbortSignal | undefined;
}

/** Yields every page from `first` on, in order. */
export async function* followPages<P extends LinkedPage>(first: string, options: FollowOptions<P>): AsyncGenerator<P> {
  const ahead = options.ahead ?? 0;
  const requested = new Set<string>();
  const queue: Promise<P>[] = [];
  let cursor: string | undefined;
  let awaitingHead = false;

  const accept = (next: string | undefined) => {
    awaitingHead = false;
    if (next === undefined) return;
    options.check?.(next);
    if (requested.has(next)) {
      options.onLoop?.(next);
      return;
    }
    cursor = next;
  };
  const pump = (limit: number) => {
    while (!awaitingHead && cursor !== undefined && queue.length < limit) {
      options.signal?.throwIfAborted();
      const url = cursor;
      cursor = undefined;
      requested.add(url);
      awaitingHead = true;
      // What the first head said; a retry must agree, except that a head with no next
      // link may have been a broken answer (its body never came) and a retry's counts.
      let heard: { next: string | undefined } | undefined;
      const hear = (next: string | undefined) => {
        if (heard && (heard.next === next || next === undefined)) return;
        if (heard?.next !== undefined) throw new PagingError(url, heard.next, next!);
        heard = { next };
        accept(next);
        pump(ahead);
      };
      const page = options.fetchPage(url, hear).then((fetched) => {
        // A page whose head was not told (fetchPage need not) is followed once it is whole.
        if (!heard) hear(fetched.next);
        return fetched;
      });
      // Rejections surface when the page's turn comes, in order.
      page.catch(() => {});
      queue.push(page);
    }
  };

  options.signal?.throwIfAborted();
  let page: P;
  try {
    page = await options.fetchPage(first, () => {});
  } catch (error) {
    if (!options.fallback?.when(error)) throw error;
    options.signal?.throwIfAborted();
    page = await options.fetchPage(options.fallback.url, () => {});
  }
  requested.add(page.url);
  accept(page.next);
  pump(ahead);
  yield page;
  for (;;) {
    pump(Math.max(1, ahead));
    if (queue.length === 0) return;
    page = await queue[0]!;
    void queue.shift();
    pump(ahead);
    yield page;
  }
}
