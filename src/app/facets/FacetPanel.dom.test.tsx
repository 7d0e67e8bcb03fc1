import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../client/config';
import { facetsUrl, fetchFacets } from '../../client/facets';
import { deploymentByKey } from '../../deployments/registry';
import type { Entries } from '../navigation/query-params';
import { appConfig, renderInApp } from '../ui/dom-app.test-support';
import { FacetPanel } from './FacetPanel';

const lit = deploymentByKey('LIT')!;
const search: Entries = [['q', 'wind']];
let config: AppConfig;
/** The author facet's values for the search and their counts, as the server's /facets answers them, top first. */
let authorCounts: [string, number][];

beforeAll(async () => {
  config = await appConfig();
  const answer = await fetchFacets(facetsUrl(config.baseUrls.LIT, [...search, ['facet', 'author']]), {});
  authorCounts = answer.facets[0]!.values.map(({ value, count }) => [value, count]);
});

const escaped = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
const renderPanel = () => renderInApp(<FacetPanel deployment={lit} entries={search} />, { path: '/lit?q=wind&page=2', config });
const authors = async () => screen.findByRole('group', { name: 'Author' }, { timeout: 20_000 });
const params = (location: string) => new URLSearchParams(location.split('?')[1]);

describe('FacetPanel', () => {
  it("lists a facet's values with the server's counts", async () => {
    await renderPanel();
    const facet = await authors();
    expect(authorCounts.length).toBeGreaterThan(2);
    for (const [value, count] of authorCounts) {
      const box = await within(facet).findByRole('checkbox', { name: escaped(value) });
      expect(box.closest('label')?.textContent).toBe(`${value}${count}`);
    }
  });

  it('ticking a value searches with it selected, from the first page', async () => {
    const { user, location } = await renderPanel();
    const [top] = authorCounts[0]!;
    await user.click(await within(await authors()).findByRole('checkbox', { name: escaped(top) }));
    await waitFor(() => expect([...params(location()).values()]).toContain(top));
    expect(params(location()).get('q')).toBe('wind');
    expect(params(location()).has('page')).toBe(false);
  });

  it('works from the keyboard: Space ticks a value, Enter on its Exclude leaves another out', async () => {
    const { user, location } = await renderPanel();
    const facet = await authors();
    const [first] = authorCounts[0]!;
    const [second] = authorCounts[1]!;
    within(facet)
      .getByRole('checkbox', { name: escaped(first) })
      .focus();
    await user.keyboard(' ');
    await waitFor(() => expect([...params(location()).values()]).toContain(first));
    const selected = location();

    // Tab from the first value's checkbox: its Exclude, then the second value's checkbox and its Exclude.
    await user.tab();
    await user.tab();
    await user.tab();
    expect(document.activeElement?.textContent?.replace(/\s+/g, ' ')).toBe(`Exclude ${second}`);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location()).not.toBe(selected));
    const excluded = [...params(location()).entries()].find(([, value]) => value === second);
    expect(excluded?.[0]).toMatch(/^exclude\./);
  });
});
