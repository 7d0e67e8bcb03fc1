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
import { apiList, apiRecord } from './support/api';
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

/** The DOI is its field, or an Extra line where the server's schema gives the type no DOI field. */
function expectDoiKept(item: Item, record: ApiRecord, name: string) {
  const doi = typeof record.doi === 'string' && record.doi ? bareDoi(record.doi) : undefined;
  if (doi) expect(item.DOI === doi || String(item.extra ?? '').includes(`DOI: ${doi}`), `${name}: ${doi}`).toBe(true);
}

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
        expect(record, `${deployment.key} has a ${productType}`).toBeDefined();
        const [item] = await capture(url(`/${deployment.slug}/records/${encodeURIComponent(record!.repo_id)}`));
        const name = `${deployment.key} ${productType} ${record!.repo_id}`;
        expect(item?.itemType, name).toBe(expectedType[productType]);
        expectDoiKept(item!, record!, name);
      }
    }
  });

  test('captures every result of a search page (through unAPI) with its type, url, DOI and number', async () => {
    for (const key of ['LIT', 'MM', 'PAT']) {
      const deployment = deployments.find((each) => each.key === key)!;
      const items = await capture(url(`/${deployment.slug}?rows=20`));
      expect(items.length, key).toBe(20);
      for (const item of items) {
        const name = `${key} ${String(item.title)}`;
        expect(String(item.url ?? ''), name).toMatch(/^https?:\/\//);
        // Generated records' url is their page here, which names the record.
        const id = decodeURIComponent(new URL(String(item.url)).pathname.split('/').at(-1)!);
        const record = await apiRecord(deployment, id);
        expect(item.itemType, name).toBe(expectedType[String(record.product_type)]);
        expectDoiKept(item, record, name);
        const number = typeof record.report_number === 'string' ? record.report_number.trim() : '';
        if (number) {
          const kept =
            [item.reportNumber, item.patentNumber, item.identifier].includes(number) || String(item.extra ?? '').includes(number);
          expect(kept, `${name}: ${number}`).toBe(true);
        }
      }
    }
  });
});
