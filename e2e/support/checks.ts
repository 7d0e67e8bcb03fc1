/** Screenshots and accessibility checks. */
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export const screenshotDir = resolve(dirname(fileURLToPath(import.meta.url)), '../screenshots');

/**
 * Saves a full-page screenshot to e2e/screenshots/<name>.png (gitignored) for a person to look
 * at, and checks the layout fact every screen must keep at every width: the page never
 * scrolls sideways. Pictures are not compared pixel by pixel: fonts and antialiasing differ
 * between machines, so such a comparison fails on what no user would notice.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(screenshotDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await mkdir(dirname(path), { recursive: true });
  // Let fonts and pending layout settle so the picture is what a user sees.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  const overflow = await horizontalOverflow(page);
  if (overflow) throw new Error(`${name}: the page scrolls sideways (${overflow})`);
  return path;
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

/**
 * Runs axe-core on the page and returns its violations in a readable form.
 *
 * In the page itself (`setLegacyMode`): the app draws no frames, and the default runs axe in
 * each frame, then opens a blank page, loads axe there too and hands it every frame's results
 * to finish, which took most of a check's time. Only violations are read, so axe is asked for
 * those alone rather than for every element that passed each rule.
 */
export async function axeViolations(page: Page): Promise<AxeViolationSummary[]> {
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze();
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
