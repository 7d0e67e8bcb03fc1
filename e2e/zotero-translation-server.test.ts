/**
 * Zotero's own translation-server capturing our pages: every product type of every deployment
 * from its record page, and a search page's results through unAPI. The server is not on npm
 * and has to be built from its repository, so this runs only where ZOTERO_TRANSLATION_SERVER
 * names one (for example http://127.0.0.1:1969) that can reach the server under test.
 */
import { describe, expect, test } from 'vitest';
import { deployments } from '../src/deployments/registry';
import type { ApiRecord } from '../src/deployments/registry';
import { bareDoi } from '../src/formats/text';
import { apiList } from './support/api';
import { url } from './support/browser';

const translationServer = process.env.ZOTERO_TRANSLATION_SERVER;
const skipped =
  'skipped: Zotero translation-server is not installed here (it is not on npm); set ZOTERO_TRANSLATION_SERVER to its URL to run';

/** The item type of each product type, as zotero-capture.test.ts derives it from Zotero's translators. */
const expectedType: Readonly<Record<string, string>> = {
  'Journal Article': 'journalArticle',
  'Technical Report': 'report',
  Conference: 'conferencePaper',
  'Thesis/Dissertation': 'thesis',
  Book: 'book',
  Dataset: 'dataset',
  Collection: 'dataset',
  Software: 'computerProgram',
  'Interactive Resource': 'webpage',
  Patent: 'patent',
  'Patent Application': 'patent',
  Video: 'videoRecording',
  Audio: 'audioRecording',
  Presentation: 'presentation',
};

type Item = Record<string, unknown> & { itemType: string };

/** POST /web: the items of a page, choosing every item where the page offers several. */
async function capture(pageUrl: string): Promise<Item[]> {
  const first = await fetch(`${translationServer}/web`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: pageUrl });
  if (first.status === 300) {
    const choice = (await first.json()) as Record<string, unknown>;
    const all = await fetch(`${translationServer}/web`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(choice),
    });
    expect(all.status, pageUrl).toBe(200);
    return (await all.json()) as Item[];
  }
  expect(first.status, pageUrl).toBe(200);
  return (await first.json()) as Item[];
}

describe.skipIf(!translationServer)(translationServer ? "Zotero's translation-server" : `Zotero's translation-server (${skipped})`, () => {
  test('captures a record page of every product type of every deployment as its item type, with its DOI', async () => {
    for (const deployment of deployments) {
      for (const productType of deployment.productTypes) {
        const { records } = await apiList(deployment, { product_type: productType, rows: 1 });
        const record: ApiRecord | undefined = records[0];
        if (!record) continue;
        const [item] = await capture(url(`/${deployment.slug}/records/${encodeURIComponent(record.repo_id)}`));
        const name = `${deployment.key} ${productType} ${record.repo_id}`;
        expect(item?.itemType, name).toBe(expectedType[productType]);
        const doi = typeof record.doi === 'string' && record.doi ? bareDoi(record.doi) : undefined;
        if (doi) expect(String(item?.DOI ?? item?.extra ?? ''), name).toContain(doi);
      }
    }
  });

  test('captures every result of a search page with its url and its type', async () => {
    const deployment = deployments.find((each) => each.key === 'LIT')!;
    const items = await capture(url(`/${deployment.slug}?rows=20`));
    expect(items.length).toBe(20);
    for (const item of items) {
      expect(Object.values(expectedType), String(item.title)).toContain(item.itemType);
      expect(String(item.url ?? ''), String(item.title)).toMatch(/^https?:\/\//);
    }
  });
});
