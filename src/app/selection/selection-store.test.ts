import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { deploymentByKey, type ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { SelectCheckbox } from './SelectCheckbox';
import { createSelectionStore, maxSelection, selectionStorageKey, serializeSelection } from './selection-store';
import type { KeyValueStorage } from '../ui/web-storage';

function must(key: string): Deployment {
  const deployment = deploymentByKey(key);
  if (!deployment) throw new Error(key);
  return deployment;
}

const lit = must('LIT');
const mm = must('MM');

/** sessionStorage as a tab holds it: strings by key, optionally refusing writes like a full quota. */
function fakeStorage(options: { full?: boolean } = {}) {
  const data = new Map<string, string>();
  const storage: KeyValueStorage = {
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => {
      if (options.full) throw new DOMException('quota', 'QuotaExceededError');
      data.set(key, value);
    },
    removeItem: (key) => void data.delete(key),
  };
  return { storage, data };
}

const wind: ApiRecord = {
  repo_id: '1',
  title: 'Wind power',
  authors: ['Adams, Zoe'],
  links: [{ rel: 'citation', href: 'https://x.example/1' }],
};
const solar: ApiRecord = { repo_id: '2', title: 'Solar cells' };

describe('selection store', () => {
  it('remembers which selected records are generated demo records, across a reload, and forgets removed ones', () => {
    const { storage } = fakeStorage();
    const before = createSelectionStore(storage);
    before.toggle(lit, wind, true, true);
    before.setAll(lit, [solar, { repo_id: '3' }], true, new Set(['3']));
    const after = createSelectionStore(storage);
    expect([...after.snapshot(lit).generated].sort()).toEqual(['1', '3']);
    after.remove(lit, '1');
    expect([...after.snapshot(lit).generated]).toEqual(['3']);
    expect([...createSelectionStore(storage).snapshot(lit).generated]).toEqual(['3']);
  });

  it('keeps the selection across a reload (a new store over the same storage)', () => {
    const { storage } = fakeStorage();
    const before = createSelectionStore(storage);
    before.toggle(lit, wind);
    before.toggle(lit, solar);
    const after = createSelectionStore(storage);
    expect(after.snapshot(lit).records).toEqual([wind, solar]);
    expect(after.snapshot(lit).ids.has('2')).toBe(true);
  });

  it('keeps each deployment’s selection apart (ids are per deployment)', () => {
    const store = createSelectionStore(fakeStorage().storage);
    store.toggle(lit, wind);
    expect(store.snapshot(mm).records).toEqual([]);
    store.toggle(mm, { repo_id: '1', title: 'A video' });
    expect(store.snapshot(lit).records).toEqual([wind]);
  });

  it('toggles, deselects and clears, telling subscribers each time', () => {
    const { storage, data } = fakeStorage();
    const store = createSelectionStore(storage);
    let calls = 0;
    const unsubscribe = store.subscribe(() => (calls += 1));
    store.toggle(lit, wind);
    store.toggle(lit, wind, true);
    expect(store.snapshot(lit).records).toHaveLength(1);
    store.toggle(lit, wind);
    expect(store.snapshot(lit).records).toEqual([]);
    store.toggle(lit, solar);
    store.clear(lit);
    expect(data.has(selectionStorageKey('LIT'))).toBe(false);
    expect(calls).toBe(4);
    unsubscribe();
    store.toggle(lit, wind);
    expect(calls).toBe(4);
  });

  it('gives the same snapshot until something changes (React re-renders on identity)', () => {
    const store = createSelectionStore(fakeStorage().storage);
    const first = store.snapshot(lit);
    expect(store.snapshot(lit)).toBe(first);
    store.toggle(lit, wind);
    expect(store.snapshot(lit)).not.toBe(first);
  });

  it('keeps working in memory when storage refuses the write, and says so', () => {
    const store = createSelectionStore(fakeStorage({ full: true }).storage);
    store.toggle(lit, wind);
    expect(store.snapshot(lit)).toMatchObject({ records: [wind], persisted: false });
  });

  it('selects and deselects a page at once, keeping order and the maximum', () => {
    const store = createSelectionStore(fakeStorage().storage);
    store.toggle(lit, solar);
    let calls = 0;
    store.subscribe(() => (calls += 1));
    store.setAll(lit, [wind, solar, wind], true);
    expect(store.snapshot(lit).records).toEqual([solar, wind]);
    store.setAll(lit, [wind], false);
    expect(store.snapshot(lit).records).toEqual([solar]);
    expect(calls).toBe(2);
    store.setAll(
      lit,
      Array.from({ length: maxSelection + 5 }, (_, index) => ({ repo_id: `r${index}` })),
      true,
    );
    expect(store.snapshot(lit).records).toHaveLength(maxSelection);
  });

  it('refuses more than the maximum', () => {
    const store = createSelectionStore(fakeStorage().storage);
    for (let index = 0; index < maxSelection; index += 1) expect(store.toggle(lit, { repo_id: String(index) })).toBe(true);
    expect(store.toggle(lit, { repo_id: 'one too many' })).toBe(false);
    expect(store.snapshot(lit).records).toHaveLength(maxSelection);
  });
});

/** What a new store (a reload) reads from a tab whose storage holds this text for LIT. */
function parseSelection(deployment: Deployment, text: string | null) {
  const { storage, data } = fakeStorage();
  if (text !== null) data.set(selectionStorageKey(deployment.key), text);
  return createSelectionStore(storage).snapshot(deployment).records;
}

describe('selection serialisation', () => {
  it('round-trips the records, unknown fields included', () => {
    const records = [wind, { ...solar, extra_field: 'kept' }];
    expect(parseSelection(lit, serializeSelection(records))).toEqual(records);
  });

  it('drops what does not parse instead of failing', () => {
    expect(parseSelection(lit, null)).toEqual([]);
    expect(parseSelection(lit, 'not json')).toEqual([]);
    expect(parseSelection(lit, JSON.stringify({ version: 2, records: [wind] }))).toEqual([]);
    expect(
      parseSelection(
        lit,
        JSON.stringify({ version: 1, records: [wind, { title: 'no id' }, { repo_id: '3', authors: 'not a list' }, wind] }),
      ),
    ).toEqual([wind]);
  });
});

describe('SelectCheckbox', () => {
  it('is named "Select <title>"', () => {
    const html = renderToStaticMarkup(createElement(SelectCheckbox, { deployment: lit, record: wind }));
    expect(html).toMatch(
      /<label class="select-checkbox"><input type="checkbox"\/><span class="visually-hidden">Select Wind power<\/span><\/label>/,
    );
  });
});
