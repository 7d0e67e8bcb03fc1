import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { main } from '../cli';
import { parseListRequest } from '../http/criteria';
import { parseQueryString } from '../http/query-string';
import { openStore } from '../store/sqlite/sqlite';

/**
 * Records shaped to break the importer rather than to mean anything: deeply nested markup,
 * lists far longer than any real record's, words thousands of letters long. Each imports
 * and is found like any record.
 */

const dc1 = deploymentByKey('DC1')!;
const dir = mkdtempSync(join(tmpdir(), 'records-hostile-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function importedAndFound(records: Record<string, unknown>[], query: string): Promise<string[]> {
  const file = join(dir, `records-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(records));
  const db = join(dir, `${Math.random().toString(36).slice(2)}.db`);
  expect(await main(['import', 'DC1', file, '--db', db])).toBe(0);
  const store = openStore(db);
  try {
    const { criteria } = parseListRequest(dc1, parseQueryString(query));
    return (await store.search('DC1', criteria)).records.map((record) => record.repo_id);
  } finally {
    await store.close();
  }
}

const record = (id: string, fields: Record<string, unknown>) => ({ osti_id: id, entry_date: '2024-01-01T00:00:00Z', ...fields });

describe('records import', () => {
  it('takes a title of 3,000 nested <i>, its words found', async () => {
    const title = `${'<i>'.repeat(3000)}Tokamak deepest${'</i>'.repeat(3000)} title`;
    expect(await importedAndFound([record('1', { title }), record('2', { title: 'Other' })], 'q=deepest')).toEqual(['1']);
  });

  it('takes a record of 150,000 authors, each found', async () => {
    const authors = Array.from({ length: 150_000 }, (_, i) => `N${i}, G`);
    expect(await importedAndFound([record('1', { title: 'Many', authors }), record('2', { title: 'Few' })], 'author=N149999')).toEqual([
      '1',
    ]);
  }, 120_000);

  it('takes words of thousands of letters, and finds the record by its other words', async () => {
    const long = 'x'.repeat(5000);
    const records = [record('1', { title: `Stellarator ${long}`, description: long }), record('2', { title: 'Other' })];
    expect(await importedAndFound(records, 'q=stellarator')).toEqual(['1']);
  });
});
