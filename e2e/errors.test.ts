/** Error states: 400 beside the field or in an alert, 404 record pages, server and network failures. */
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { deploymentByKey, deployments } from '../src/deployments/registry';
import { apiError, findSearchTerm } from './support/api';
import { gotoApp, searchPath, waitForResults } from './support/app';
import { useBrowser } from './support/browser';
import { screenshot } from './support/checks';

const ui = useBrowser();
const lit = deploymentByKey('LIT')!;

/**
 * Where the page shows a 400's errorDescription: beside the field (aria-invalid and
 * aria-describedby) or in an alert. Polls until one of them says it.
 */
async function expectFieldError(page: Page, label: string, description: string): Promise<'field' | 'alert'> {
  let where: 'field' | 'alert' | undefined;
  await expect
    .poll(
      async () => {
        const field = page.getByLabel(label, { exact: true });
        if ((await field.count()) > 0 && (await field.first().getAttribute('aria-invalid')) === 'true') {
          const ids = ((await field.first().getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
          const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
          if (texts.join(' ').includes(description)) return (where = 'field');
        }
        const alerts = await page.getByRole('alert').allTextContents();
        if (alerts.some((text) => text.includes(description))) return (where = 'alert');
        return `not yet; alerts: ${JSON.stringify(alerts)}`;
      },
      { timeout: 15_000, interval: 250 },
    )
    .toMatch(/^(field|alert)$/);
  expect(await page.getByText(description, { exact: false }).first().isVisible()).toBe(true);
  return where!;
}

test('400: an impossible date typed into the page URL shows the server message at the field', async () => {
  const { page } = ui;
  const { status, error } = await apiError(`${lit.basePath}/records?publication_date_start=02/30/2024`);
  expect(status).toBe(400);
  await gotoApp(page, searchPath(lit, { publication_date_start: '02/30/2024' }));
  const where = await expectFieldError(page, 'Published on or after', error.errorDescription);
  await screenshot(page, `lit-400-date-${where}`);
});

test('400: rows=5000 shows the server message at "Results per page"', async () => {
  const { page } = ui;
  const { term } = await findSearchTerm(lit);
  const { status, error } = await apiError(`${lit.basePath}/records?q=${encodeURIComponent(term)}&rows=5000`);
  expect(status).toBe(400);
  await gotoApp(page, searchPath(lit, { q: term, rows: 5000 }));
  const where = await expectFieldError(page, 'Results per page', error.errorDescription);
  await screenshot(page, `lit-400-rows-${where}`);
});

test('404: a record id that does not exist, in every deployment', async () => {
  const { page } = ui;
  for (const deployment of deployments) {
    const id = 'no-such-record-000';
    const { status, error } = await apiError(`${deployment.basePath}/records/${id}`);
    expect(status).toBe(404);
    expect(error.statusMessage).toBe('Not Found');
    await gotoApp(page, `/${deployment.slug}/records/${id}`);
    await page.getByRole('heading', { name: 'Record not found' }).waitFor();
    await page.getByText(error.errorDescription).first().waitFor();
    if (deployment.key === 'LIT') await screenshot(page, 'lit-404-record');
  }
});

test('server error and network failure: an alert with "Try again" that recovers', async () => {
  const { page } = ui;
  const { term } = await findSearchTerm(lit);
  const listUrl = (target: URL) => target.pathname === `${lit.basePath}/records`;

  // A 500 from the server.
  await page.route(listUrl, (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ statusCode: 500, statusMessage: 'Internal Error', errorDescription: 'Simulated failure for the e2e test.' }),
    }),
  );
  await gotoApp(page, searchPath(lit, { q: term }));
  const alert = page.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Try again' }) });
  await alert.waitFor({ state: 'visible', timeout: 30_000 });
  await screenshot(page, 'lit-500-alert');
  await page.unroute(listUrl);
  await alert.getByRole('button', { name: 'Try again' }).click();
  expect(await waitForResults(page)).toBeGreaterThan(0);
  expect(await alert.count()).toBe(0);

  // The network fails.
  await page.route(listUrl, (route) => route.abort('failed'));
  await gotoApp(page, searchPath(lit, { q: term, page: 2 }));
  await alert.waitFor({ state: 'visible', timeout: 30_000 });
  await screenshot(page, 'lit-network-failure-alert');
  await page.unroute(listUrl);
  await alert.getByRole('button', { name: 'Try again' }).click();
  expect(await waitForResults(page)).toBeGreaterThan(0);
});
