import { describe, expect, it } from 'vitest';
import { deploymentByKey, deployments, recordSchema } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { parseAuthor } from '../../formats/authors';
import type { StoredRecord } from '../store/types';
import { defaultStartId, fulltextShareOf, generateRecords } from './generate';

const sample = (deployment: Deployment, count: number, seed = 11, startId?: number) => [
  ...generateRecords(deployment, count, { seed, ...(startId === undefined ? {} : { startId }) }),
];

const lit = deploymentByKey('LIT')!;
const samples = new Map(deployments.map((deployment) => [deployment.key, sample(deployment, 1500)]));
const samplesOf = (key: string) => samples.get(key as Deployment['key'])!;
const field = (records: readonly StoredRecord[], name: string) => records.map((stored) => stored.record[name]);
const share = (records: readonly StoredRecord[], test: (stored: StoredRecord) => boolean) => records.filter(test).length / records.length;

function findUndefined(value: unknown, path: string): string | undefined {
  if (value === undefined) return path;
  if (Array.isArray(value)) return value.map((item, index) => findUndefined(item, `${path}[${index}]`)).find(Boolean);
  if (value && typeof value === 'object') {
    return Object.entries(value)
      .map(([key, item]) => findUndefined(item, `${path}.${key}`))
      .find(Boolean);
  }
  return undefined;
}

describe('generateRecords', () => {
  it('gives the same records for the same seed and different ones for another seed', () => {
    for (const deployment of deployments) {
      const first = sample(deployment, 50, 42);
      expect(sample(deployment, 50, 42)).toEqual(first);
      const other = sample(deployment, 50, 43);
      const differing = other.filter((stored, index) => JSON.stringify(stored) !== JSON.stringify(first[index]));
      expect(differing.length).toBeGreaterThan(45);
    }
  });

  it('draws each record from its own stream, so a smaller corpus is a prefix of a larger one', () => {
    const large = sample(lit, 120, 5);
    expect(sample(lit, 40, 5)).toEqual(large.slice(0, 40));
    expect(sample(lit, 20, 5, defaultStartId + 100)).toEqual(large.slice(100));
  });

  it('differs between deployments for the same seed and id', () => {
    const titles = new Set(deployments.map((deployment) => sample(deployment, 1, 3)[0]!.record.title));
    expect(titles.size).toBe(deployments.length);
  });

  it('numbers records consecutively from 50 000 001, or from startId', () => {
    const ids = field(samplesOf('DC1'), 'repo_id');
    expect(ids[0]).toBe('50000001');
    expect(ids).toEqual(ids.map((_, index) => String(defaultStartId + index)));
    expect(new Set(ids).size).toBe(ids.length);
    expect(field(sample(lit, 3, 1, 7), 'repo_id')).toEqual(['7', '8', '9']);
  });

  it('rejects a negative or fractional count and a non-positive startId', () => {
    expect(() => sample(lit, -1)).toThrow(RangeError);
    expect(() => sample(lit, 1.5)).toThrow(RangeError);
    expect(() => sample(lit, 1, 1, 0)).toThrow(RangeError);
    expect(sample(lit, 0)).toEqual([]);
  });

  it.each(deployments.map((deployment) => [deployment.key, deployment] as const))(
    '%s records carry exactly the table fields, in order, and pass the record schema',
    (key, deployment) => {
      const names = deployment.fields.map((definition) => definition.name);
      const schema = recordSchema(deployment);
      for (const stored of samplesOf(key)) {
        expect(Object.keys(stored.record)).toEqual(names);
        expect(schema.safeParse(stored.record).success).toBe(true);
        expect(findUndefined(stored, 'stored')).toBeUndefined();
      }
    },
  );

  it.each(deployments.map((deployment) => [deployment.key, deployment] as const))(
    '%s sets site only when no record field holds the submitter code',
    (key, deployment) => {
      const siteInRecord = deployment.fields.some((definition) => definition.keys?.includes('site'));
      for (const stored of samplesOf(key)) {
        if (siteInRecord) expect(stored.site).toBeUndefined();
        else expect(stored.site).toMatch(/^[A-Z][A-Z-]+$/);
      }
    },
  );

  it('gives full texts to about 40% of LIT, 20% of DC1, DC0, PAT and ENR records and none in MM', () => {
    const expected = { LIT: 0.4, DC1: 0.2, DC0: 0.2, PAT: 0.2, ENR: 0.2, MM: 0 } as const;
    for (const deployment of deployments) {
      expect(fulltextShareOf(deployment)).toBe(expected[deployment.key]);
      const actual = share(samplesOf(deployment.key), (stored) => stored.fulltext !== undefined);
      expect(Math.abs(actual - expected[deployment.key])).toBeLessThan(0.05);
    }
  });

  it('writes full texts of a few paragraphs that start with the title', () => {
    for (const stored of samplesOf('LIT').filter((item) => item.fulltext)) {
      const text = stored.fulltext!;
      expect(text.startsWith(`${stored.record.title as string}\n\n`)).toBe(true);
      expect(text.length).toBeGreaterThan(450);
      expect(text.length).toBeLessThan(2000);
      expect(text.split('\n\n').length).toBeGreaterThanOrEqual(2);
    }
  });

  it.each(deployments.map((deployment) => [deployment.key, deployment] as const))(
    '%s links: a citation page always, a full-text link exactly when there is full text',
    (key, deployment) => {
      for (const stored of samplesOf(key)) {
        const links = stored.record.links as { rel: string; href: string }[] | undefined;
        if (deployment.linkRels.length === 0) {
          expect(links).toBeUndefined();
          continue;
        }
        const rels = links!.map((link) => link.rel);
        for (const rel of rels) expect(deployment.linkRels).toContain(rel);
        expect(links![0]).toEqual({ rel: 'citation', href: `/${deployment.slug}/records/${stored.record.repo_id}` });
        const fulltextLink = links!.find((link) => link.rel === 'fulltext');
        if (deployment.linkRels.includes('fulltext') && stored.fulltext !== undefined) {
          expect(fulltextLink?.href).toBe(`/files/fulltext/${deployment.slug}/${stored.record.repo_id}.txt`);
        } else expect(fulltextLink).toBeUndefined();
      }
    },
  );

  it('dates records from 1950 to 2026 in ISO UTC form, entered no earlier than published', () => {
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
    const years = new Set<number>();
    for (const deployment of deployments) {
      for (const { record } of samplesOf(deployment.key)) {
        const published = record.publication_date as string;
        const entered = record.entry_date as string;
        expect(published).toMatch(iso);
        expect(entered).toMatch(iso);
        expect(entered >= published).toBe(true);
        const year = Number(published.slice(0, 4));
        expect(year).toBeGreaterThanOrEqual(1950);
        expect(year).toBeLessThanOrEqual(2026);
        years.add(Math.floor(year / 10));
        if (record.announcement_date) expect(record.announcement_date).toMatch(iso);
      }
    }
    // Every decade from the 1950s to the 2020s occurs.
    expect([...years].sort()).toEqual([195, 196, 197, 198, 199, 200, 201, 202]);
  });

  it('writes titles and 40–150 word descriptions, a few with characters that stress codecs', () => {
    const records = samplesOf('LIT');
    for (const { record } of records) {
      expect((record.title as string).length).toBeGreaterThan(5);
      const words = (record.description as string).split(/\s+/).length;
      expect(words).toBeGreaterThanOrEqual(40);
      expect(words).toBeLessThanOrEqual(160);
    }
    const text = deployments
      .flatMap((deployment) => samplesOf(deployment.key))
      .map(({ record }) => `${record.title as string} ${record.description as string}`)
      .join('\n');
    for (const awkward of ['&', '<sub>', '%', '_', '{', '$', 'µ', 'ü', '"']) expect(text).toContain(awkward);
  });

  it('writes authors as "Surname, Given" with affiliations, ORCIDs and diacritics in some', () => {
    const authors = samplesOf('LIT').flatMap(({ record }) => record.authors as string[]);
    const counts = samplesOf('LIT').map(({ record }) => (record.authors as string[]).length);
    expect(Math.min(...counts)).toBe(1);
    expect(Math.max(...counts)).toBe(8);
    for (const author of authors) {
      const name = parseAuthor(author);
      expect(name.family.length).toBeGreaterThan(0);
      expect(name.given.length).toBeGreaterThan(0);
    }
    expect(authors.some((author) => /\[[^\]]+\]/.test(author))).toBe(true);
    expect(authors.some((author) => !author.includes('['))).toBe(true);
    const orcids = authors.flatMap((author) => /\(ORCID:(\d{15}[\dX])\)$/.exec(author)?.[1] ?? []);
    expect(orcids.length).toBeGreaterThan(0);
    for (const id of orcids) {
      // Below ORCID's first issued iD (0000-0001-5000-0007), with a valid ISO 7064 check digit.
      expect(id.startsWith('00000000'), id).toBe(true);
      let total = 0;
      for (const digit of id.slice(0, 15)) total = (total + Number(digit)) * 2;
      expect(id.at(-1), id).toBe(String((12 - (total % 11)) % 11).replace('10', 'X'));
    }
    expect(authors.some((author) => /[^\u0000-\u007f]/.test(parseAuthor(author).family))).toBe(true);
  });

  it('writes DOIs bare and as resolver URLs under the 10.5555 test prefix only, and leaves some empty', () => {
    for (const deployment of deployments) {
      const dois = (field(samplesOf(deployment.key), 'doi') as string[]).filter(Boolean);
      for (const doi of dois) expect(doi, deployment.key).toMatch(/^(https:\/\/doi\.org\/)?10\.5555\/\S+$/);
    }
    const dois = field(samplesOf('LIT'), 'doi') as string[];
    expect(dois.some((doi) => doi.startsWith('10.5555/'))).toBe(true);
    expect(dois.some((doi) => doi.startsWith('https://doi.org/10.5555/'))).toBe(true);
    expect(dois.some((doi) => doi === '')).toBe(true);
  });

  it('fills subjects with category codes and keywords, leaving some empty', () => {
    const subjects = field(samplesOf('LIT'), 'subjects') as string[][];
    expect(subjects.some((list) => list.length === 0)).toBe(true);
    const all = subjects.flat();
    expect(all.some((subject) => /^\d{2} [A-Z ,]+$/.test(subject))).toBe(true);
    expect(all).toContain('70 PLASMA PHYSICS AND FUSION TECHNOLOGY');
    expect(all.some((subject) => /^[a-z]/.test(subject))).toBe(true);
  });

  it('uses report numbers and contract numbers of the laboratories, several joined by "; "', () => {
    const reports = (field(samplesOf('LIT'), 'report_number') as string[]).join('\n');
    // In the laboratories' schemes, marked as demo numbers no laboratory issued.
    expect(reports).toMatch(/DEMO-SAND\d{4}-\d+/);
    expect(reports).toMatch(/DEMO-LA-UR-\d{2}-\d{5}/);
    expect(reports).toMatch(/DEMO-ORNL\/[A-Z]+-\d{4}\/\d+/);
    for (const report of reports.split(/\n|; /).filter(Boolean)) expect(report).toMatch(/^DEMO-/);
    const contracts = field(samplesOf('LIT'), 'agency_contract_number') as string[];
    expect(contracts).toContain('AC05-00OR22725');
    expect(contracts.some((value) => /^\S+; \S+/.test(value))).toBe(true);
    expect(contracts).toContain('');
  });

  it('takes product types from the table, the first listed the most common', () => {
    for (const deployment of deployments) {
      const types = field(samplesOf(deployment.key), 'product_type') as string[];
      for (const type of types) expect(deployment.productTypes).toContain(type);
      if (deployment.key !== 'MM') {
        const first = types.filter((type) => type === deployment.productTypes[0]).length;
        for (const other of deployment.productTypes.slice(1)) expect(types.filter((type) => type === other).length).toBeLessThan(first);
      }
    }
  });

  it('fills journal fields and article types for journal articles only', () => {
    for (const { record } of samplesOf('LIT')) {
      if (record.product_type === 'Journal Article') continue;
      expect(record.journal_name).toBe('');
      expect(record.article_type).toBeNull();
    }
    const articleTypes = new Set(field(samplesOf('LIT'), 'article_type'));
    expect(articleTypes).toEqual(new Set(['Accepted Manuscript', 'Published Article', null]));
  });

  it('writes mostly English, United States records and some in other languages and countries', () => {
    const records = samplesOf('ENR');
    const english = share(records, ({ record }) => record.language === 'English');
    expect(english).toBeGreaterThan(0.85);
    expect(english).toBeLessThan(0.99);
    const languages = new Set(field(records, 'language'));
    for (const language of ['German', 'French', 'Japanese', 'Russian', 'Spanish']) expect(languages).toContain(language);
    expect(new Set(field(records, 'country_publication'))).toContain('Germany');
  });

  it('links only to addresses that reach nothing real: reserved .example hosts, 10.5555 DOIs, local files', () => {
    for (const deployment of deployments) {
      const text = JSON.stringify(samplesOf(deployment.key).map((stored) => stored.record));
      const urls = text.match(/https?:\/\/[^\s"';,)]+/g) ?? [];
      expect(urls.length, deployment.key).toBeGreaterThan(0);
      for (const url of urls) {
        const { hostname, pathname } = new URL(url);
        const demo = hostname.endsWith('.example') || (hostname === 'doi.org' && pathname.startsWith('/10.5555/'));
        expect(demo, `${deployment.key} ${url}`).toBe(true);
      }
    }
  });

  it('gives DC1 sizes, site addresses, site codes and related identifiers', () => {
    const records = samplesOf('DC1');
    for (const { record } of records) {
      expect(record.site_url).toMatch(/^https:\/\//);
      expect(record.site_ownership_code).toMatch(/^[A-Z][A-Z-]+$/);
      if (record.dataset_size === null) continue;
      expect(typeof record.dataset_size).toBe('number');
      expect(record.format).toMatch(/Size: \d+(\.\d\d)? (bytes|kB|MB|GB|TB)$/);
    }
    const related = (field(records, 'related_identifiers') as string[][]).flat();
    expect(related.some((value) => /^DOI; IsCitedBy; 10\.5555\//.test(value))).toBe(true);
    expect(related.filter((value) => value.startsWith('DOI;')).every((value) => value.includes('; 10.5555/'))).toBe(true);
    expect(field(records, 'dataset_size')).toContain(null);
  });

  it('numbers PAT records as patents and applications under ZZ, a country code no patent office has', () => {
    for (const { record } of samplesOf('PAT')) {
      const pattern = record.product_type === 'Patent' ? /^ZZ \d{1,2},\d{3},\d{3} (A|B1|B2)$/ : /^ZZ \d{4}\/0\d{6} A1$/;
      expect(record.report_number).toMatch(pattern);
    }
  });

  it('gives DC0 content types, ENR announcement dates and submitting sites', () => {
    const contentTypes = new Set((field(samplesOf('DC0'), 'dataset_content_type') as string[][]).flat());
    for (const type of ['Simulation', 'Numeric', 'Image', 'Text']) expect(contentTypes).toContain(type);
    const enr = samplesOf('ENR');
    expect(field(enr, 'announcement_date')).toContain(null);
    expect(share(enr, ({ record }) => typeof record.submitting_site === 'string' && record.submitting_site !== '')).toBeGreaterThan(0.8);
    expect(share(enr, ({ record }) => record.other_identifying_numbers !== '')).toBeGreaterThan(0.5);
  });
});
