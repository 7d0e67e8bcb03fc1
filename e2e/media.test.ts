/** The multimedia catalog's player really plays (currentTime advances); a format the browser cannot play says so and offers the file. */
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { deploymentByKey } from '../src/deployments/registry';
import type { ApiRecord } from '../src/deployments/registry';
import { apiList, linksOf } from './support/api';
import { gotoApp, linkActionNames, resultLinks, searchPath, waitForResults } from './support/app';
import { desktop, phone, url, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const mm = deploymentByKey('MM')!;

/** mime_type values worth trying, audio first (smaller files). */
const candidates = ['wav', 'x-wav', 'mp3', 'mpeg', 'ogg', 'oga', 'opus', 'webm', 'mp4', 'm4a'];

/** MM records, by mime type, whose media link the browser can fetch from the local server. */
async function playableRecords(page: Page): Promise<{ mime: string; record: ApiRecord }[]> {
  const found: { mime: string; record: ApiRecord }[] = [];
  const { records } = await apiList(mm, { rows: 300 });
  const mimes = [...new Set(records.map((record) => String(record.mime_type ?? '').toLowerCase()).filter(Boolean))];
  const ordered = [...candidates.filter((mime) => mimes.includes(mime)), ...mimes.filter((mime) => !candidates.includes(mime))];
  for (const mime of ordered) {
    const { records: ofType } = await apiList(mm, { mime_type: mime, rows: 20 });
    const record = ofType.find((candidate) => linksOf(candidate).some((link) => link.rel === 'media'));
    if (!record) continue;
    const type = /^(mp4|webm|ogv|mov)$/.test(mime) ? `video/${mime}` : mime.includes('/') ? mime : `audio/${mime}`;
    const verdict = await page.evaluate((t) => document.createElement('audio').canPlayType(t), type);
    if (verdict) found.push({ mime, record });
  }
  return found;
}

test('MM: a playable record plays in the page (currentTime advances)', async () => {
  const { page } = ui;
  await gotoApp(page, `/${mm.slug}`);
  const playable = await playableRecords(page);
  expect(playable.length, 'MM has records with a playable mime type and a media link').toBeGreaterThan(0);
  const { mime, record } = playable[0]!;
  const id = String(record.repo_id);

  // Reach the record the way a user does: through the results.
  await gotoApp(page, searchPath(mm, { mime_type: mime, repo_id: id }));
  expect(await waitForResults(page)).toBe(1);
  await resultLinks(page).first().click();
  await page.waitForURL((current) => current.pathname === `/${mm.slug}/records/${encodeURIComponent(id)}`);

  const player = page.locator('audio[controls], video[controls]').first();
  await player.waitFor({ state: 'visible' });
  const mediaHref = linksOf(record).find((link) => link.rel === 'media')!.href;
  await expect(page.getByRole('link', { name: linkActionNames.media }).first().getAttribute('href')).resolves.toBeTruthy();

  // A user gesture first (focus and press Space on the player), then make sure it plays.
  await player.focus();
  await page.keyboard.press('Space');
  await player.evaluate(async (element: HTMLMediaElement) => {
    if (element.paused) await element.play();
  });
  await expect
    .poll(() => player.evaluate((element: HTMLMediaElement) => element.currentTime), { timeout: 10_000, interval: 250 })
    .toBeGreaterThan(0.5);
  const state = await player.evaluate((element: HTMLMediaElement) => ({
    src: element.currentSrc,
    paused: element.paused,
    error: element.error?.code ?? null,
    duration: element.duration,
  }));
  expect(state.error).toBeNull();
  expect(state.paused).toBe(false);
  expect(state.duration).toBeGreaterThan(0.5);
  // The player plays the record's media (served by the local server).
  expect(new URL(state.src).pathname).toBe(new URL(mediaHref, url('/')).pathname);
  await screenshot(page, `mm-record-playing-${mime}`);
});

test('MM: a link ending in #t= starts the player at that time, and the player copies a link at its current time', async () => {
  const { page } = ui;
  await ui.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await gotoApp(page, `/${mm.slug}`);
  const { record } = (await playableRecords(page))[0]!;
  await gotoApp(page, `/${mm.slug}/records/${encodeURIComponent(String(record.repo_id))}#t=1.5`);
  const player = page.locator('audio[controls], video[controls]').first();
  await player.waitFor({ state: 'visible' });
  const duration = await player.evaluate((element: HTMLMediaElement) =>
    element.readyState >= 1
      ? element.duration
      : new Promise<number>((resolve) => element.addEventListener('loadedmetadata', () => resolve(element.duration), { once: true })),
  );
  expect(duration).toBeGreaterThan(1.5);
  await expect.poll(() => player.evaluate((element: HTMLMediaElement) => element.currentTime)).toBeGreaterThanOrEqual(1.5);

  await player.evaluate((element: HTMLMediaElement) => {
    element.currentTime = 1;
  });
  await page.getByRole('button', { name: 'Copy link at current time' }).click();
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Link copied' }).count()).toBe(1);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(new URL(copied).hash).toBe('#t=1');
  expect(new URL(copied).pathname).toBe(`/${mm.slug}/records/${encodeURIComponent(String(record.repo_id))}`);
});

/** An MM record of the mime type with a media link. */
async function recordOfType(mime: string): Promise<{ record: ApiRecord; mediaHref: string }> {
  const { records } = await apiList(mm, { mime_type: mime, rows: 20 });
  const record = records.find((candidate) => linksOf(candidate).some((link) => link.rel === 'media'));
  expect(record, `an MM ${mime} record with a media link`).toBeDefined();
  return { record: record!, mediaHref: linksOf(record!).find((link) => link.rel === 'media')!.href };
}

test('MM: Windows Media Audio says the browser cannot play it, names the format and offers the file; no player', async () => {
  const { page } = ui;
  await page.setViewportSize(desktop);
  const { record, mediaHref } = await recordOfType('x-ms-wma');
  await gotoApp(page, `/${mm.slug}/records/${encodeURIComponent(record.repo_id)}`);
  await page.getByText('Your browser cannot play Windows Media Audio (WMA).').waitFor();
  const download = page.getByRole('link', { name: 'Download the Windows Media Audio (WMA) file' });
  expect(new URL((await download.getAttribute('href'))!, page.url()).pathname).toBe(new URL(mediaHref, url('/')).pathname);
  expect(await page.locator('audio, video').count()).toBe(0);
  // The offered file is there: the server sends it as what it is.
  const served = await fetch(new URL((await download.getAttribute('href'))!, page.url()));
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toBe('audio/x-ms-wma');
  await served.body?.cancel();
  await expectNoAxeViolations(page, 'MM WMA record, desktop');
  await screenshot(page, 'mm-record-cannot-play-wma-desktop');
  await page.setViewportSize(phone);
  await expectNoAxeViolations(page, 'MM WMA record, phone');
  await screenshot(page, 'mm-record-cannot-play-wma-phone');
  await page.setViewportSize(desktop);
});

test('MM: an MP4 record plays only where canPlayType accepts MP4, and otherwise says so', async () => {
  const { page } = ui;
  const { record } = await recordOfType('mp4');
  await gotoApp(page, `/${mm.slug}/records/${encodeURIComponent(record.repo_id)}`);
  await page.getByRole('list', { name: 'Links' }).waitFor();
  const verdict = await page.evaluate(() => document.createElement('video').canPlayType('video/mp4'));
  if (verdict === '') {
    await page.getByText('Your browser cannot play MP4 video.').waitFor();
    expect(await page.getByRole('link', { name: 'Download the MP4 video file' }).count()).toBe(1);
    expect(await page.locator('video').count()).toBe(0);
  } else {
    await page.locator('video[controls]').waitFor();
    expect(await page.getByText('Your browser cannot play').count()).toBe(0);
  }
});
