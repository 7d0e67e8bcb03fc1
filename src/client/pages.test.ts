import { describe, expect, test } from 'vitest';
import { followPages, nextLink, PagingError, type LinkedPage } from './pages';

/** The pager over a listing held in a table: page URL → next link, every request recorded. */
function listing(links: Record<string, string | undefined>, options: { failFirst?: Error } = {}) {
  const requests: string[] = [];
  const fetchPage = async (url: string, onNext: (next: string | undefined) => void): Promise<LinkedPage> => {
    requests.push(url);
    if (options.failFirst !== undefined && requests.length === 1) throw options.failFirst;
    if (!(url in links)) throw new Error(`no page ${url}`);
    onNext(links[url]);
    return { url, next: links[url] };
  };
  return { fetchPage, requests };
}

async function urlsOf(pages: AsyncGenerator<LinkedPage>, onPage: (url: string) => void = () => {}): Promise<string[]> {
  const urls: string[] = [];
  for await (const page of pages) {
    urls.push(page.url);
    onPage(page.url);
  }
  return urls;
}

const chain = { 'u:1': 'u:2', 'u:2': 'u:3', 'u:3': undefined };

describe('followPages', () => {
  test('follows rel="next" to the end, in order', async () => {
    const { fetchPage, requests } = listing(chain);
    expect(await urlsOf(followPages('u:1', { fetchPage }))).toEqual(['u:1', 'u:2', 'u:3']);
    expect(requests).toEqual(['u:1', 'u:2', 'u:3']);
  });

  test('asks for a page only when it is wanted, unless told to ask ahead', async () => {
    const lazy = listing(chain);
    const asked: number[] = [];
    await urlsOf(followPages('u:1', { fetchPage: lazy.fetchPage }), () => asked.push(lazy.requests.length));
    expect(asked).toEqual([1, 2, 3]);
    const eager = listing(chain);
    const askedAhead: number[] = [];
    await urlsOf(followPages('u:1', { fetchPage: eager.fetchPage, ahead: 2 }), () => askedAhead.push(eager.requests.length));
    expect(askedAhead).toEqual([3, 3, 3]);
  });

  test('a page linking back to one already fetched ends the listing, or fails it when onLoop says so', async () => {
    const looping = { 'u:1': 'u:2', 'u:2': 'u:1' };
    const quiet = listing(looping);
    expect(await urlsOf(followPages('u:1', { fetchPage: quiet.fetchPage }))).toEqual(['u:1', 'u:2']);
    expect(quiet.requests).toEqual(['u:1', 'u:2']);
    const loud = listing(looping);
    const onLoop = (next: string) => {
      throw new Error(`loops back to ${next}`);
    };
    await expect(urlsOf(followPages('u:1', { fetchPage: loud.fetchPage, onLoop }))).rejects.toThrow('loops back to u:1');
  });

  test('check refuses a next link before it is asked for', async () => {
    const { fetchPage, requests } = listing({ 'u:1': 'elsewhere:2' });
    const check = (next: string) => {
      if (!next.startsWith('u:')) throw new Error(`not following ${next}`);
    };
    await expect(urlsOf(followPages('u:1', { fetchPage, check }))).rejects.toThrow('not following elsewhere:2');
    expect(requests).toEqual(['u:1']);
  });

  test('falls back to the other form of the first URL when its failure says so, and only then', async () => {
    const refused = new Error('rows too large');
    const fallback = { url: 'u:1', when: (error: unknown) => error === refused };
    const { fetchPage, requests } = listing(chain, { failFirst: refused });
    expect(await urlsOf(followPages('u:1?rows=1000', { fetchPage, fallback }))).toEqual(['u:1', 'u:2', 'u:3']);
    expect(requests).toEqual(['u:1?rows=1000', 'u:1', 'u:2', 'u:3']);
    const other = listing(chain, { failFirst: new Error('down') });
    await expect(urlsOf(followPages('u:1?rows=1000', { fetchPage: other.fetchPage, fallback }))).rejects.toThrow('down');
  });

  test('an abort between pages ends the listing before the next request', async () => {
    const { fetchPage, requests } = listing(chain);
    const controller = new AbortController();
    const pages = followPages('u:1', { fetchPage, signal: controller.signal });
    await expect(urlsOf(pages, () => controller.abort())).rejects.toMatchObject({ name: 'AbortError' });
    expect(requests).toEqual(['u:1']);
  });

  test('a retried page whose next link changed fails the listing', async () => {
    const fetchPage = async (url: string, onNext: (next: string | undefined) => void): Promise<LinkedPage> => {
      if (url === 'u:1') return { url, next: 'u:2' };
      if (url !== 'u:2') return { url, next: undefined };
      // Two tries of page 2 (the fetch's own retry), whose heads name different next pages.
      onNext('u:3');
      onNext('u:4');
      return { url, next: 'u:4' };
    };
    const error = await urlsOf(followPages('u:1', { fetchPage, ahead: 1 })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PagingError);
    expect(error).toMatchObject({ url: 'u:2', first: 'u:3', then: 'u:4' });
  });
});

describe('nextLink', () => {
  test('is the rel="next" target, resolved against the URL that answered', () => {
    const headers = new Headers({ Link: '<records?page=3>; rel="next", <records?page=1>; rel="first"' });
    expect(nextLink({ url: 'https://mirror.example/api/v1/records?page=2', headers })).toBe('https://mirror.example/api/v1/records?page=3');
    expect(nextLink({ url: 'https://mirror.example/api/v1/records', headers: new Headers() })).toBeUndefined();
  });
});
