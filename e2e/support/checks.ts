/** Screenshots and accessibility checks. */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Axe from 'axe-core';
import type { Page } from 'playwright-core';

const screenshotDir = resolve(dirname(fileURLToPath(import.meta.url)), '../screenshots');

/**
 * Saves a picture as e2e/screenshots/<name>.png (gitignored) for a person to look at, in a run
 * asked for them (`E2E_SCREENSHOTS=1`). Pictures are not compared pixel by pixel (fonts and
 * antialiasing differ between machines, so such a comparison fails on what no user would
 * notice), so a run that only checks skips their cost.
 */
export async function picture(name: string, take: (path: string) => Promise<unknown>): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== '1') return;
  await mkdir(screenshotDir, { recursive: true });
  await take(join(screenshotDir, `${name.replace(/[^\w.-]+/g, '-')}.png`));
}

/**
 * Checks the layout fact every screen must keep at every width, that the page never scrolls
 * sideways, and keeps a full-page picture of it (`picture`).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  // Let fonts and pending layout settle so the page is what a user sees.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await picture(name, (path) => page.screenshot({ path, fullPage: true, animations: 'disabled' }));
  const overflow = await horizontalOverflow(page);
  if (overflow) throw new Error(`${name}: the page scrolls sideways (${overflow})`);
}

/** Why the page is wider than the window (the widest elements past its right edge), or undefined. */
async function horizontalOverflow(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const root = document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return undefined;
    const past = [...document.body.querySelectorAll('*')]
      .map((element) => ({ element, right: element.getBoundingClientRect().right }))
      .filter(({ right }) => right > root.clientWidth + 1)
      .sort((a, b) => b.right - a.right)
      .slice(0, 3)
      .map(
        ({ element, right }) =>
          `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(' ')[0]}` : ''} to ${Math.round(right)}px`,
      );
    return `${root.scrollWidth}px wide in ${root.clientWidth}px: ${past.join(', ')}`;
  });
}

export interface AxeViolationSummary {
  id: string;
  impact: string | null | undefined;
  help: string;
  nodes: { target: string; summary: string }[];
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core in the page and returns its violations in a readable form.
 *
 * axe is loaded into a document once: the app changes state without loading a new document,
 * so the later checks of one visit do not load it again. The app draws no frames, so axe runs
 * in the page alone, and is asked for violations only rather than for every element that
 * passed each rule.
 */
export async function axeViolations(page: Page): Promise<AxeViolationSummary[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(() =>
    (window as unknown as { axe: typeof Axe }).axe.run(document, { resultTypes: ['violations'] }).then((results) => results.violations),
  );
  return violations.map((violation) => ({
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
