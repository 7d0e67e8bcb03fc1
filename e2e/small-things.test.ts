/**
 * Issue 38 item 8, the smaller things a person notices: a refusal every catalog gives alike is
 * said once, with no "Try again" that cannot succeed.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { deployments } from '../src/deployments/registry';
import { gotoApp } from './support/app';
import { desktop, phone, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const widths = [
  ['desktop', desktop],
  ['phone', phone],
] as const;

async function atWidth(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
}

describe('All catalogs: a refusal every catalog gives', () => {
  for (const [label, size] of widths) {
    test(`${label}: is said once beside the box, with no Try again`, async () => {
      const { page } = ui;
      await atWidth(page, size);
      const answered: number[] = [];
      page.on('response', (response) => {
        if (/\/api\/[a-z]+\/v[\d.]+\/records\?/.test(response.url())) answered.push(response.status());
      });
      await gotoApp(page, `/all?q=${'plasma '.repeat(200).trim()}`);
      const alert = page.getByRole('alert').filter({ hasText: 'q is too long' });
      await alert.waitFor();
      expect(answered.length).toBe(deployments.length);
      expect(answered.every((status) => status === 400)).toBe(true);
      expect(await page.getByText('q is too long').count()).toBe(1);
      expect(await alert.textContent()).toContain('Every catalog refused this search');
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
      expect(await page.getByRole('searchbox').getAttribute('aria-invalid')).toBe('true');
      await screenshot(page, `all-refused-${label}`);
      await expectNoAxeViolations(page, `all catalogs refused (${label})`);
    });
  }
});
