/** Screenshots and accessibility checks. */
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export const screenshotDir = resolve(dirname(fileURLToPath(import.meta.url)), '../screenshots');

/** Saves a full-page screenshot to e2e/screenshots/<name>.png (gitignored). */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(screenshotDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await mkdir(dirname(path), { recursive: true });
  // Let fonts and pending layout settle so the picture is what a user sees.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}

export interface AxeViolationSummary {
  id: string;
  impact: string | null | undefined;
  help: string;
  nodes: { target: string; summary: string }[];
}

/** Runs axe-core on the page and returns its violations in a readable form. */
export async function axeViolations(page: Page): Promise<AxeViolationSummary[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    help: `${violation.help} (${violation.helpUrl})`,
    nodes: violation.nodes.map((node) => ({
      target: node.target.map(String).join(' '),
      summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
    })),
  }));
}

export function formatViolations(label: string, violations: readonly AxeViolationSummary[]): string {
  const lines = [`axe found ${violations.length} violation(s) on ${label}:`];
  for (const violation of violations) {
    lines.push(`- [${violation.impact ?? 'n/a'}] ${violation.id}: ${violation.help}`);
    for (const node of violation.nodes.slice(0, 8)) lines.push(`    at ${node.target}\n      ${node.summary}`);
    if (violation.nodes.length > 8) lines.push(`    … and ${violation.nodes.length - 8} more`);
  }
  return lines.join('\n');
}

/** Fails with a readable list when axe-core reports any violation. */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  const violations = await axeViolations(page);
  if (violations.length > 0) throw new Error(formatViolations(label, violations));
}
