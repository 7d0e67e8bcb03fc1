import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { readUpstreamFiles } from '../import/files';
import { realData, realFiles } from '../import/real-files.test-support';
import { getJson, listIds, qs, sorted, useFixture, type Rec } from './server-fixture.test-support';

/**
 * A year among the words of `q` (docs/decisions.md, "Years in the box"): the way people cite,
 * "Lim 2017", finds the record published in 2017 whose text never says 2017. Exact counts:
 * the year word adds the records published then to those holding the word.
 */

const dc1 = deploymentByKey('DC1')!;
const records = () =>
  readUpstreamFiles(
    dc1,
    [realFiles.geothermal, realFiles.plasma].map((file) => fileURLToPath(new URL(file, realData))),
  );
const real = useFixture({ content: () => [[dc1.key, records()]] });

const yearOf = (record: Rec) => Number(String(record.publication_date ?? '').slice(0, 4));

describe('a year in the search box', () => {
  it('finds a work by surname and year, and by surname, a word and year, though its text has no year', async () => {
    // 1367912: "Brady's Geothermal Field - Analysis of Pressure Data", Lim, David, published 2017.
    const record = records().find(({ record }) => record.repo_id === '1367912')!.record as Rec;
    expect(yearOf(record)).toBe(2017);
    expect(JSON.stringify({ ...record, publication_date: '' })).not.toContain('2017');
    for (const q of ['Lim 2017', 'Lim pressure 2017', 'pressure Lim 2016-2018']) {
      expect(await listIds(real.list(dc1, qs({ q, rows: 20 }))), q).toContain('1367912');
    }
    expect(await listIds(real.list(dc1, qs({ q: 'Lim 2016', rows: 100 })))).not.toContain('1367912');
  });

  it('counts exactly the records that hold the word and hold the year or were published then', async () => {
    const ids = async (params: Record<string, string>) => new Set(await listIds(real.list(dc1, qs({ ...params, rows: 1000 }))));
    for (const [word, year, from, to] of [
      ['pressure', '2017', '2017', '2017'],
      ['temperature', '2010-2015', '2010', '2015'],
    ] as const) {
      const withWord = await ids({ q: word });
      const published = await ids({ publication_date_start: `01/01/${from}`, publication_date_end: `12/31/${to}` });
      const written = await ids({ q: `"${year}"` });
      const expected = [...withWord].filter((id) => published.has(id) || written.has(id));
      const q = `${word} ${year}`;
      const { body, total } = await getJson<Rec[]>(real.list(dc1, qs({ q, rows: 1000 })));
      expect(sorted(body.map((r) => r.repo_id)), q).toEqual(sorted(expected));
      expect(total, q).toBe(expected.length);
      // The year finds more than the word alone would.
      expect(expected.length, q).toBeGreaterThan([...withWord].filter((id) => written.has(id)).length);
    }
  });

  it('reads a quoted year, a fielded one and a number that is no year as words only', async () => {
    expect(await listIds(real.list(dc1, qs({ q: 'Lim "2017"', rows: 100 })))).not.toContain('1367912');
    expect(await listIds(real.list(dc1, qs({ q: 'pressure 2017*', rows: 100 })))).not.toContain('1367912');
    expect((await getJson(real.list(dc1, qs({ title: '2017', rows: 100 })))).total).toBe(
      records().filter(({ record }) => String(record.title).includes('2017')).length,
    );
  });
});
