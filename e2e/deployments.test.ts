/**
 * For each of the six deployments: search, page forward and back by the Link header,
 * open a record from the results and see its fields and link actions.
 */
import type { Response } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { deployments } from '../src/deployments/registry';
import type { Deployment } from '../src/deployments/schema';
import { parseLinkHeader } from '../src/formats/link-header';
import { apiWorkLeads, findLinkedRecord, findSearchTerm, isEmpty, linksOf } from './support/api';
import {
  definitionList,
  gotoApp,
  linkActionNames,
  pageOf,
  pagination,
  recordAuthors,
  resultLinks,
  search,
  searchParamsOf,
  searchPath,
  waitForPage,
  waitForResults,
} from './support/app';
import { useBrowser } from './support/browser';

const ui = useBrowser();

/** Record ids of the results, read from their links to the record page. */
async function resultIds(deployment: Deployment): Promise<string[]> {
  const hrefs = await resultLinks(ui.page).evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  return hrefs.map((href) => {
    const match = new RegExp(`/${deployment.slug.replace(/\./g, '\\.')}/records/([^/?#]+)`).exec(new URL(href).pathname);
    if (!match) throw new Error(`result link ${href} does not lead to a ${deployment.slug} record page`);
    return decodeURIComponent(match[1]!);
  });
}

/** Query parameters as a comparable, order-independent string. */
function paramsKey(href: string): string {
  return [...new URL(href).searchParams]
    .map(([name, value]) => `${name}=${value}`)
    .sort()
    .join('&');
}

interface SeenList {
  url: string;
  link: string | undefined;
}

describe.each(deployments.map((deployment) => [deployment.key, deployment] as const))('%s', (_key, deployment) => {
  test('search, then page forward and back by the Link header', async () => {
    const { page } = ui;
    const { term, total } = await findSearchTerm(deployment);
    const lastPage = Math.ceil(total / 20);

    const seen: SeenList[] = [];
    page.on('response', (response: Response) => {
      const target = new URL(response.url());
      if (target.pathname === `${deployment.basePath}/records` && response.request().method() === 'GET') {
        seen.push({ url: response.url(), link: response.headers()['link'] });
      }
    });
    const linksOfPage = (n: number) => {
      const response = seen.findLast((entry) => {
        const params = new URL(entry.url).searchParams;
        return params.get('q') === term && (params.get('page') ?? '1') === String(n);
      });
      if (!response) throw new Error(`the app never fetched page ${n}: ${seen.map((entry) => entry.url).join(', ')}`);
      return parseLinkHeader(response.link, response.url);
    };

    await gotoApp(page, `/${deployment.slug}`);
    expect(await search(page, term)).toBe(total);

    // Page 1: the same records as the API's first page, and Next/Last but no Previous.
    expect(await pageOf(page)).toEqual({ page: 1, of: lastPage });
    const nav = pagination(page);
    await expect.poll(() => nav.locator('[aria-current="page"]').count()).toBeGreaterThan(0);
    expect(await nav.locator('[aria-current="page"]').first().textContent()).toContain('1');
    const first = await resultIds(deployment);
    // One result per work, as the API groups the page (group=work; real DC1 records hold versions of one work).
    expect(first).toEqual(await apiWorkLeads(deployment, { q: term }));
    expect(await nav.getByRole('link', { name: 'Previous page' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Last page' }).count()).toBe(1);

    const links1 = linksOfPage(1);
    expect(links1.next, 'Link header of page 1 has rel="next"').toBeDefined();
    const nextPage = new URL(links1.next!).searchParams.get('page');
    expect(nextPage).toBe('2');

    // Forward.
    await nav.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL((current) => current.searchParams.get('page') === nextPage);
    await waitForPage(page, 2);
    await expect.poll(async () => (await resultIds(deployment))[0]).not.toBe(first[0]);
    const second = await resultIds(deployment);
    expect(
      second.filter((id) => first.includes(id)),
      'pages 1 and 2 overlap',
    ).toEqual([]);
    expect(second).toEqual(await apiWorkLeads(deployment, { q: term, page: 2 }));
    expect(searchParamsOf(page).get('q')).toBe(term);
    // The app fetched the page the Link header named (same parameters, any order).
    expect(seen.map((entry) => paramsKey(entry.url))).toContain(paramsKey(links1.next!));
    expect(await nav.getByRole('link', { name: 'Previous page' }).count()).toBe(1);
    expect(await nav.getByRole('link', { name: 'First page' }).count()).toBe(1);

    // Back.
    const links2 = linksOfPage(2);
    expect(links2.prev, 'Link header of page 2 has rel="prev"').toBeDefined();
    const prevPage = new URL(links2.prev!).searchParams.get('page') ?? '1';
    await nav.getByRole('link', { name: 'Previous page' }).click();
    await page.waitForURL((current) => (current.searchParams.get('page') ?? '1') === prevPage);
    await waitForPage(page, 1);
    await expect.poll(() => resultIds(deployment)).toEqual(first);

    // Last page: no Next, and the page number of rel="last".
    const lastHref = links1.last;
    expect(lastHref, 'Link header has rel="last"').toBeDefined();
    await nav.getByRole('link', { name: 'Last page' }).click();
    await page.waitForURL((current) => current.searchParams.get('page') === new URL(lastHref!).searchParams.get('page'));
    await waitForPage(page, lastPage);
    expect(await nav.getByRole('link', { name: 'Next page' }).count()).toBe(0);
    expect(await resultLinks(page).count()).toBe((await apiWorkLeads(deployment, { q: term, page: lastPage })).length);
  });

  test('open a record from the results: title, labelled fields and link actions', async () => {
    const { page } = ui;
    const record = await findLinkedRecord(deployment);
    const id = String(record.repo_id);

    await gotoApp(page, searchPath(deployment, { repo_id: id }));
    expect(await waitForResults(page)).toBe(1);
    await resultLinks(page).first().click();
    await page.waitForURL((current) => current.pathname === `/${deployment.slug}/records/${encodeURIComponent(id)}`);

    const heading = page.getByRole('heading', { level: 1 });
    const plainTitle = String(record.title)
      .replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ')
      .trim();
    await expect.poll(async () => ((await heading.textContent()) ?? '').replace(/\s+/g, ' ').trim()).toBe(plainTitle);

    // Labelled fields: a <dt> with the field's label for the record's non-empty fields the page does not lead with.
    const shown = await definitionList(page);
    const expected = deployment.fields.filter(
      (field) => (!field.role || field.role === 'published') && field.kind !== 'links' && !isEmpty(record[field.name]),
    );
    const labelled = expected.filter((field) => shown.has(field.label));
    expect(
      labelled.length,
      `labelled fields shown: ${labelled.map((field) => field.label).join(', ')}; missing: ${expected
        .filter((field) => !shown.has(field.label))
        .map((field) => field.label)
        .join(', ')}`,
    ).toBeGreaterThanOrEqual(Math.min(5, expected.length));
    for (const field of labelled) expect(shown.get(field.label), `value of ${field.label}`).not.toBe('');
    if (!isEmpty(record.authors)) {
      const surname = String((record.authors as string[])[0])
        .split(/[,[]/)[0]!
        .trim();
      expect(await recordAuthors(page).textContent()).toContain(surname);
    }
    if (!isEmpty(record.language)) expect(shown.get('Language')).toContain(String(record.language));

    // Link actions: one per rel the deployment promises, pointing where the record says.
    for (const rel of deployment.linkRels) {
      const href = linksOf(record).find((link) => link.rel === rel)!.href;
      const action = page.getByRole('link', { name: linkActionNames[rel] }).first();
      await action.waitFor({ state: 'visible' });
      const shownHref = new URL((await action.getAttribute('href'))!, page.url()).href;
      expect(shownHref, `${linkActionNames[rel]} link`).toBe(new URL(href, page.url()).href);
    }
    if (deployment.linkRels.length === 0) {
      for (const name of Object.values(linkActionNames)) expect(await page.getByRole('link', { name }).count()).toBe(0);
    }
  });
});
