import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { parseWorkVersions, totalWorksHeader, workVersionsHeader } from '../../formats/extension-headers';
import { readUpstreamFiles } from '../import/files';
import { realData, realFiles } from '../import/real-files.test-support';
import { getJson, qs, rawRequest, sorted, useFixture, type Rec } from './server-fixture.test-support';
import { groupingWindow } from '../render/work-page';

/**
 * `group=work` on the real DC1 records, which hold upstream duplicates ("ARM: CO2 Flux Data:
 * 4m samples" twice, with a DOI each; one DOI on two records): each work once, its most
 * complete record first, and the record counts exactly those of the same search ungrouped.
 * On every store (the HTTP suite runs on PostgreSQL too).
 */

const dc1 = deploymentByKey('DC1')!;
const records = readUpstreamFiles(
  dc1,
  [realFiles.geothermal, realFiles.plasma].map((file) => fileURLToPath(new URL(file, realData))),
);

const fx = useFixture({ content: () => [['DC1', records]] });

interface GroupedAnswer {
  readonly total: number;
  readonly works: string[][];
  readonly totalWorks: number | undefined;
  readonly next: string | undefined;
}

async function grouped(query: string): Promise<GroupedAnswer> {
  const answer = await getJson<Rec[]>(fx.list(dc1, query));
  expect(answer.status).toBe(200);
  const counts = parseWorkVersions(answer.response.headers.get(workVersionsHeader), answer.body.length);
  expect(counts, `${workVersionsHeader}: ${answer.response.headers.get(workVersionsHeader)}`).toBeDefined();
  const ids = answer.body.map((record) => record.repo_id);
  const works: string[][] = [];
  for (const count of counts!) works.push(ids.splice(0, count));
  const totalWorks = answer.response.headers.get(totalWorksHeader);
  const next = /<([^>]+)>;\s*rel="next"/.exec(answer.response.headers.get('Link') ?? '')?.[1];
  return {
    total: Number(answer.response.headers.get('X-Total-Count')),
    works,
    totalWorks: totalWorks === null ? undefined : Number(totalWorks),
    next,
  };
}

describe('group=work', () => {
  it('lists the ARM dataset entered twice upstream once, its more complete record first', async () => {
    const plain = await getJson<Rec[]>(fx.list(dc1, qs({ q: 'CO2 flux' })));
    const plainIds = plain.body.map((record) => record.repo_id);
    expect(plainIds).toEqual(expect.arrayContaining(['1342140', '1342397']));
    expect(plain.response.headers.get(workVersionsHeader)).toBeNull();

    const answer = await grouped(qs({ q: 'CO2 flux', group: 'work' }));
    expect(answer.total).toBe(Number(plain.response.headers.get('X-Total-Count')));
    // 1342140 fills contributor_org, which 1342397 leaves out.
    expect(answer.works).toContainEqual(['1342140', '1342397']);
    expect(answer.works.flat()).toHaveLength(plainIds.length);
    expect(sorted(answer.works.flat())).toEqual(sorted(plainIds));
    expect(answer.totalWorks).toBe(answer.works.length);
    expect(answer.totalWorks).toBe(answer.total - 1);
  });

  it('groups two records with one DOI, whatever their titles', async () => {
    const answer = await grouped(qs({ q: 'rheology sludges', group: 'work' }));
    expect(answer.works).toContainEqual([expect.any(String), expect.any(String)]);
    expect(sorted(answer.works.find((work) => work.length === 2)!)).toEqual(['2476482', '2479885']);
  });

  it('pages through every record exactly once, and the works add up to X-Total-Count on every page size', async () => {
    for (const rows of [7, 20, 150]) {
      const plainIds: string[] = [];
      let url: string | undefined = fx.list(dc1, qs({ rows, sort: 'title' }));
      while (url) {
        const page: Awaited<ReturnType<typeof getJson<Rec[]>>> = await getJson<Rec[]>(url);
        plainIds.push(...page.body.map((record) => record.repo_id));
        url = /<([^>]+)>;\s*rel="next"/.exec(page.response.headers.get('Link') ?? '')?.[1];
      }

      const works: string[][] = [];
      let query: string | undefined = fx.list(dc1, qs({ rows, sort: 'title', group: 'work' }));
      let total = 0;
      while (query) {
        const page = await grouped(query.slice(query.indexOf('?') + 1));
        total = page.total;
        expect(page.works.length).toBeLessThanOrEqual(rows);
        works.push(...page.works);
        query = page.next;
      }
      expect(total).toBe(plainIds.length);
      expect(works.flat()).toHaveLength(total);
      expect(sorted(works.flat())).toEqual(sorted(plainIds));
      // The ARM dataset's two records are next to each other by title: one work on any page size.
      expect(works.find((work) => work.includes('1342397'))).toEqual(['1342140', '1342397']);
      // Past one window nobody has counted every work.
      expect(total).toBeGreaterThan(groupingWindow);
    }
  });

  it('counts every work of a result that fits one window', async () => {
    // Dexheimer's "Site A1 - Atmospheric Sensor / Reviewed Data" is five records, "Site G …" three.
    const search = { author: 'Dexheimer', group: 'work', rows: 2 };
    const answer = await grouped(qs(search));
    expect(answer.total).toBeLessThanOrEqual(groupingWindow);
    const all: string[][] = [];
    let query: string | undefined = fx.list(dc1, qs(search));
    while (query) {
      const page = await grouped(query.slice(query.indexOf('?') + 1));
      expect(page.totalWorks).toBe(answer.totalWorks);
      all.push(...page.works);
      query = page.next;
    }
    expect(all).toHaveLength(answer.totalWorks!);
    expect(all.flat()).toHaveLength(answer.total);
    expect(all.map((work) => work.length)).toEqual(expect.arrayContaining([5, 3]));
  });

  it('groups XML and BibTeX bodies alike', async () => {
    const xml = await rawRequest(fx.list(dc1, qs({ q: 'CO2 flux', group: 'work' })), { headers: { Accept: 'application/xml' } });
    expect(xml.status).toBe(200);
    const json = await grouped(qs({ q: 'CO2 flux', group: 'work' }));
    expect(xml.headers[workVersionsHeader.toLowerCase()]).toBe(json.works.map((work) => work.length).join(','));
    expect([...xml.body.toString('utf8').matchAll(/<repo_id>([^<]+)<\/repo_id>/g)].map((match) => match[1])).toEqual(json.works.flat());
  });

  it('refuses another value, and group anywhere but the record list', async () => {
    const bad = await getJson<{ errorDescription: string }>(fx.list(dc1, qs({ q: 'ARM', group: 'person' })));
    expect(bad.status).toBe(400);
    expect(bad.body.errorDescription).toMatch(/group must be work/);
    const facets = await getJson<{ errorDescription: string }>(`${fx.url}${dc1.basePath}/facets?${qs({ q: 'ARM', group: 'work' })}`);
    expect(facets.status).toBe(400);
    expect(facets.body.errorDescription).toMatch(/group is a parameter of \/api\/dc\/v1\/records only/);
  });
});
