import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import type { KeyValueStorage } from '../ui/web-storage';
import { createHistoryStore, maxRecent, searchQuery } from './history-store';
import { describeQuery, newSinceQuery } from './new-since';
import { exportSavedSearches, importSavedSearches } from './saved-file';

const lit = deploymentByKey('LIT')!;

function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

let ids = 0;
const nextId = () => `id-${++ids}`;

describe('search history', () => {
  it('keeps the last 50 searches, newest first, each once', () => {
    const store = createHistoryStore(memoryStorage(), nextId);
    for (let i = 0; i < 60; i++) store.record('LIT', `q=term${i}`);
    store.record('LIT', 'q=term20');
    const { recent } = store.snapshot();
    expect(recent).toHaveLength(maxRecent);
    expect(recent[0]!.query).toBe('q=term20');
    expect(recent.filter((item) => item.query === 'q=term20')).toHaveLength(1);
    expect(recent.some((item) => item.query === 'q=term5')).toBe(false);
  });

  it('survives a reload through storage, and reads damaged storage as empty', () => {
    const storage = memoryStorage();
    const first = createHistoryStore(storage, nextId);
    first.record('DC1', 'title=adsorption');
    first.save('DC1', 'title=adsorption', 'Adsorption datasets');
    const again = createHistoryStore(storage, nextId).snapshot();
    expect(again.recent.map((item) => item.query)).toEqual(['title=adsorption']);
    expect(again.saved.map((item) => item.name)).toEqual(['Adsorption datasets']);
    storage.data.set('records-explorer:history', '{"version":1,"recent":[{"deployment":"XX","query":1}],"saved":"no"}');
    expect(createHistoryStore(storage, nextId).snapshot()).toMatchObject({ recent: [], saved: [] });
    storage.data.set('records-explorer:history', 'not json');
    expect(createHistoryStore(storage, nextId).snapshot()).toMatchObject({ recent: [], saved: [] });
  });

  it('says when storage refuses a change, and keeps it for this page', () => {
    const store = createHistoryStore(
      {
        getItem: () => null,
        removeItem: () => undefined,
        setItem: () => {
          throw new Error('QuotaExceededError');
        },
      },
      nextId,
    );
    store.save('LIT', 'q=grid', 'Grid');
    expect(store.snapshot()).toMatchObject({ persisted: false, saved: [{ name: 'Grid' }] });
  });

  it('refuses a saved search without a name', () => {
    const store = createHistoryStore(memoryStorage(), nextId);
    expect(() => store.save('LIT', 'q=grid', '   ')).toThrow();
  });

  it('exports saved searches and imports them elsewhere without duplicates', () => {
    const source = createHistoryStore(memoryStorage(), nextId);
    source.save('LIT', 'q=grid', 'Grid');
    source.save('MM', 'q=fusion', 'Fusion videos');
    const file = exportSavedSearches(source.snapshot().saved);
    const target = createHistoryStore(memoryStorage(), nextId);
    target.save('LIT', 'q=grid', 'My grid');
    expect(importSavedSearches(target, file)).toEqual({ added: 1, skipped: 1 });
    expect(
      target
        .snapshot()
        .saved.map((item) => item.name)
        .sort(),
    ).toEqual(['Fusion videos', 'My grid']);
    expect(() => importSavedSearches(target, '{"hello":1}')).toThrow(/not a Records Explorer saved-searches export/);
    expect(() => importSavedSearches(target, '<xml/>')).toThrow(/not JSON/);
  });

  it('remembers one search as one entry, whatever order the URL gave its criteria in', () => {
    const target = createHistoryStore(memoryStorage());
    target.record(
      'LIT',
      searchQuery(lit, [
        ['q', 'solar cell'],
        ['facet.product_type', 'Journal Article'],
      ]),
    );
    target.record(
      'LIT',
      searchQuery(lit, [
        ['facet.product_type', 'Journal Article'],
        ['q', 'solar cell'],
        ['page', '2'],
      ]),
    );
    expect(target.snapshot().recent).toHaveLength(1);
  });

  it('remembers a fielded type: and the same ticked filter as one entry; two ticked values stay filters', () => {
    const target = createHistoryStore(memoryStorage());
    target.record(
      'LIT',
      searchQuery(lit, [
        ['q', 'solar cell'],
        ['product_type', 'Journal Article'],
      ]),
    );
    target.record(
      'LIT',
      searchQuery(lit, [
        ['q', 'solar cell'],
        ['facet.product_type', 'Journal Article'],
      ]),
    );
    expect(target.snapshot().recent.map((entry) => entry.query)).toEqual(['product_type=Journal+Article&q=solar+cell']);
    expect(
      searchQuery(lit, [
        ['facet.product_type', 'Journal Article'],
        ['facet.product_type', 'Book'],
      ]),
    ).toBe('facet.product_type=Journal+Article&facet.product_type=Book');
  });

  it('remembers a search without its page', () => {
    expect(
      searchQuery(lit, [
        ['q', 'solar cell'],
        ['page', '3'],
        ['rows', '50'],
      ]),
    ).toBe('q=solar+cell&rows=50');
  });
});

describe('new since last visit', () => {
  it('asks for records entered from the day of the last visit, newest first, in the deployment’s date format', () => {
    const enr = deploymentByKey('ENR')!;
    expect(newSinceQuery(lit, 'q=grid&sort=title&page=4', '2026-11-20T15:30:00.000Z')).toBe(
      'q=grid&sort=entry_date&entry_date_start=11%2F20%2F2026&order=desc',
    );
    expect(new URLSearchParams(newSinceQuery(enr, 'q=grid', '2026-01-02T00:00:00.000Z')).get('entry_date_start')).toBe('01-02-2026');
  });

  it('describes a search in the words of its filter chips, not by parameter names', () => {
    expect(describeQuery('LIT', 'facet.product_type=Journal+Article&q=solar+cell')).toBe('solar cell · Product type: Journal Article');
    expect(
      describeQuery('LIT', 'exclude.product_type=Thesis&publication_date_start=01%2F01%2F2010&publication_date_end=12%2F31%2F2019'),
    ).toBe('Product type: not Thesis · Published: 2010–2019');
    expect(describeQuery('LIT', '')).toBe('All records');
  });
});
