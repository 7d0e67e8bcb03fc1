import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { validateCriteria } from '../../client/criteria-schema';
import { enr as tableEnr } from '../../deployments/enr';
import { deploymentByKey } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { normalizeKeyValue } from '../../formats/keys';
import { generateRecords } from '../corpus/generate';
import { openStore, openStoreWriter } from '../store/sqlite/sqlite';
import type { RecordStore, StoredRecord } from '../store/types';
import { startServer, type RunningServer } from './server';
import { getJson, listIds, qs, type Rec } from './server-fixture.test-support';

/**
 * The design's test: what is sortable, exact-filterable and date-bounded is a change to the
 * deployment table alone. Here the table itself is changed for this file (ENR's
 * announcement_date made sortable and given date bounds, an exact-match filter on
 * article_type), and the real server, store, writer and the app's criteria schema follow
 * with no other change. The shipped ENR table keeps announcement_date unsortable: the
 * upstream API does not document it as a sort field.
 */
vi.mock('../../deployments/registry', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../deployments/registry')>();
  const params = await import('../../deployments/params');
  const changeEnr = (enr: Deployment): Deployment => ({
    ...enr,
    fields: enr.fields.map((field) =>
      field.name === 'announcement_date'
        ? { ...field, sortable: true }
        : field.name === 'article_type'
          ? // A new key name, as a new exact-match filter would add to KeyName.
            { ...field, keys: ['article_type' as never] }
          : field,
    ),
    params: enr.params.flatMap((param) =>
      param.name === 'sort'
        ? [
            {
              name: 'article_type',
              label: 'Article type',
              help: 'Exact, any case.',
              kind: 'exact' as const,
              key: 'article_type' as never,
              advanced: true,
            },
            params.dateParam('announcement_date', 'start', 'Announced', 'announcement'),
            params.dateParam('announcement_date', 'end', 'Announced', 'announcement'),
            param,
          ]
        : [param],
    ),
  });
  const deployments = actual.deployments.map((deployment) => (deployment.key === 'ENR' ? changeEnr(deployment) : deployment));
  return {
    ...actual,
    deployments,
    deploymentByKey: (key: string) => deployments.find((deployment) => deployment.key === key.toUpperCase()),
    deploymentBySlug: (slug: string) => deployments.find((deployment) => deployment.slug === slug),
  };
});

const enr = deploymentByKey('ENR')!;
const count = 300;
let dir: string;
let store: RecordStore;
let server: RunningServer;
let records: Rec[];

/** Generated ENR records, some sharing one announcement instant so only repo_id can order them. */
function corpus(): StoredRecord[] {
  const generated = [...generateRecords(enr, count, { seed: 12 })];
  return generated.map((stored, i) =>
    i % 25 === 3 ? { ...stored, record: { ...stored.record, announcement_date: '2015-06-01T00:00:00Z' } } : stored,
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'records-one-place-'));
  const path = join(dir, 'records.db');
  const stored = corpus();
  records = stored.map(({ record }) => record as Rec);
  const writer = openStoreWriter(path);
  try {
    // Written backwards, so storage order never agrees with repo_id order by accident.
    writer.put('ENR', [...stored].reverse());
  } finally {
    writer.close();
  }
  store = openStore(path);
  server = await startServer({ store, port: 0 });
});

afterAll(async () => {
  await server?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const list = (query: Record<string, string | number>) => `${server.url}${enr.basePath}/records?${qs({ rows: 1000, ...query })}`;
const announced = (record: Rec) =>
  typeof record.announcement_date === 'string' && record.announcement_date ? record.announcement_date : undefined;
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The order the API promises: by date in the direction asked, ties by repo_id the same way, empty dates last. */
function expectedOrder(subset: readonly Rec[], direction: 1 | -1): string[] {
  const dated = subset.filter((record) => announced(record));
  const undated = subset.filter((record) => !announced(record));
  dated.sort((a, b) => direction * (compare(announced(a)!, announced(b)!) || compare(a.repo_id, b.repo_id)));
  undated.sort((a, b) => direction * compare(a.repo_id, b.repo_id));
  return [...dated, ...undated].map((record) => record.repo_id);
}

describe('a field made sortable in the table alone', () => {
  it('orders by announcement_date both ways, ties by repo_id, empty dates last', async () => {
    expect(records.filter((record) => !announced(record)).length).toBeGreaterThan(0);
    expect(await listIds(list({ sort: 'announcement_date', order: 'asc' }))).toEqual(expectedOrder(records, 1));
    expect(await listIds(list({ sort: 'announcement_date' }))).toEqual(expectedOrder(records, -1));
    expect(await listIds(list({ sort: 'announcement_date asc', rows: 7, page: 3 }))).toEqual(expectedOrder(records, 1).slice(14, 21));
  });
});

describe('an exact-match filter added in the table alone', () => {
  it('finds the records with that article type, in any case', async () => {
    const value = records.map((record) => record.article_type).find((type): type is string => typeof type === 'string' && type !== '')!;
    const expected = records.filter(
      (record) => typeof record.article_type === 'string' && normalizeKeyValue(record.article_type) === normalizeKeyValue(value),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(records.length);
    const { status, total } = await getJson(list({ article_type: value.toUpperCase() }));
    expect(status).toBe(200);
    expect(total).toBe(expected.length);
    expect(await listIds(list({ article_type: value, sort: 'announcement_date', order: 'asc' }))).toEqual(expectedOrder(expected, 1));
  });
});

describe('a date parameter added in the table alone', () => {
  it('bounds announcement_date inclusively by day, in the deployment date format', async () => {
    const dates = records
      .map(announced)
      .filter((date): date is string => date !== undefined)
      .sort();
    const from = dates[Math.floor(dates.length / 4)]!.slice(0, 10);
    const to = dates[Math.floor((dates.length * 3) / 4)]!.slice(0, 10);
    const asEnr = (iso: string) => `${iso.slice(5, 7)}-${iso.slice(8, 10)}-${iso.slice(0, 4)}`;
    const expected = records.filter((record) => {
      const day = announced(record)?.slice(0, 10);
      return day !== undefined && day >= from && day <= to;
    });
    const query = { announcement_date_start: asEnr(from), announcement_date_end: asEnr(to), sort: 'announcement_date', order: 'asc' };
    expect(await listIds(list(query))).toEqual(expectedOrder(expected, 1));
    const bad = await getJson<{ errorDescription?: string }>(list({ announcement_date_start: '2020-13-45' }));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('announcement_date_start');
    const crossed = await getJson(list({ announcement_date_start: asEnr(to), announcement_date_end: asEnr(from) }));
    expect(from < to && crossed.status).toBe(400);
  });
});

describe("the app's criteria schema", () => {
  const criteria = { sort: 'announcement_date', article_type: 'Letter', announcement_date_start: '06-01-2015' };

  it('accepts the new sort, filter and date parameter from the changed table', () => {
    expect(validateCriteria(enr, criteria)).toEqual({});
    expect(Object.keys(validateCriteria(enr, { announcement_date_end: '13-40-2015' }))).toEqual(['announcement_date_end']);
  });

  it('and the shipped table still refuses them', () => {
    expect(Object.keys(validateCriteria(tableEnr, criteria)).sort()).toEqual(['announcement_date_start', 'article_type', 'sort']);
  });
});

describe('a store built before the change', () => {
  it('is refused with a rebuild hint, never read as if it had no such column', () => {
    const path = join(dir, 'before.db');
    // The command runs with the shipped table, so it writes the store as it was before the change.
    execFileSync(process.execPath, [join(process.cwd(), 'bin/records.js'), 'generate', 'ENR', '3', '--db', path], { stdio: 'pipe' });
    expect(() => openStore(path)).toThrow(/rebuild/);
  });
});
