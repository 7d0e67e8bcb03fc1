import { fetchPage, HarvestError, SourceRefusal, type FetchedPage, type RequestOptions } from './request';

/**
 * The pages of one listing, in order, by following `rel="next"`: page URLs are never
 * computed, so whatever paging scheme the source uses is the one followed. With a
 * concurrency above 1 the next page is asked for as soon as the current response's head
 * (with its Link header) arrives, keeping at most that many pages in flight or waiting to
 * be consumed.
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
export async function* followPages(first: string, fallback: string | undefined, options: PagerOptions): AsyncGenerator<FetchedPage> {
  const origin = new URL(first).origin;
  const requested = new Set<string>();
  const queue: Promise<FetchedPage>[] = [];
  let cursor: string | undefined;
  let awaitingHead = false;

  const accept = (next: string | undefined) => {
    awaitingHead = false;
    if (next === undefined) return;
    // The token and the contact go only where the operator pointed the harvest.
    const target = new URL(next);
    if (target.username || target.password)
      throw new HarvestError(
        `The source's next page carries credentials (${target.origin}${target.pathname}); the harvest sends none but its token.`,
      );
    if (target.origin !== origin)
      throw new HarvestError(`The source's next page is on another origin (${next}); the harvest stays on ${origin}.`);
    if (requested.has(next)) throw new HarvestError(`The source's next page ${next} was already fetched: its paging loops.`);
    cursor = next;
  };
  const pump = () => {
    while (!awaitingHead && cursor !== undefined && queue.length < options.concurrency) {
      const url = cursor;
      cursor = undefined;
      requested.add(url);
      awaitingHead = true;
      // What the first head said; a retry must agree, except that a head with no next
      // link may have been a broken answer (its body never came) and a retry's counts.
      let heard: { next: string | undefined } | undefined;
      const page = fetchPage(url, options, (next) => {
        if (heard && (heard.next === next || next === undefined)) return;
        if (heard?.next !== undefined) {
          throw new HarvestError(
            `The source's next page after ${url} changed between tries (${heard.next}, then ${next}); run the harvest again.`,
          );
        }
        heard = { next };
        accept(next);
        pump();
      });
      // Rejections surface when the page's turn comes, in order.
      page.catch(() => {});
      queue.push(page);
    }
  };

  let page: FetchedPage;
  try {
    page = await fetchPage(first, options);
  } catch (error) {
    if (!(error instanceof SourceRefusal && error.status === 400 && fallback)) throw error;
    options.onFallback?.(error);
    page = await fetchPage(fallback, options);
  }
  requested.add(page.url);
  accept(page.next);
  pump();
  yield page;
  while (queue.length > 0) {
    page = await queue[0]!;
    void queue.shift();
    pump();
    yield page;
  }
}
