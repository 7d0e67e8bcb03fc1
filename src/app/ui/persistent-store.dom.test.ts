import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { persistent, persistentFamily } from './persistent-store';
import type { KeyValueStorage } from './web-storage';

const key = 'records-explorer:test';
const schema = z.object({ names: z.array(z.string()) });
const empty = { names: [] as string[] };
const options = (storage: KeyValueStorage | undefined = localStorage) => ({ storage, key, schema, empty });

/** What another tab does: writes the storage and fires the storage event this tab receives. */
function otherTabWrites(value: string | null) {
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, value);
  window.dispatchEvent(new StorageEvent('storage', { key, newValue: value, storageArea: localStorage }));
}

describe('persistent', () => {
  it('reads back what was kept, through the schema', () => {
    localStorage.setItem(key, JSON.stringify({ names: ['Ada'] }));
    expect(persistent(options()).kept()).toEqual({ value: { names: ['Ada'] }, persisted: true });
  });

  it('reads text that is not JSON, a value the schema refuses, and blocked storage as empty, never throwing', () => {
    localStorage.setItem(key, '{not json');
    expect(persistent(options()).kept().value).toBe(empty);
    localStorage.setItem(key, JSON.stringify({ names: [1, 2] }));
    expect(persistent(options()).kept().value).toBe(empty);
    const blocked: KeyValueStorage = {
      getItem: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
      setItem: () => {},
      removeItem: () => {},
    };
    expect(persistent(options(blocked)).kept().value).toBe(empty);
  });

  it('hands out the same snapshot until the value changes (as useSyncExternalStore needs)', () => {
    const names = persistent(options());
    const first = names.kept();
    expect(names.kept()).toBe(first);
    names.set({ names: ['Grace'] });
    expect(names.kept()).not.toBe(first);
    expect(JSON.parse(localStorage.getItem(key)!)).toEqual({ names: ['Grace'] });
  });

  it('keeps a value storage refuses (quota) for this page and says it is not kept', () => {
    const full: KeyValueStorage = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
      removeItem: () => {},
    };
    const names = persistent(options(full));
    expect(names.set({ names: ['Ada'] })).toBe(false);
    expect(names.kept()).toEqual({ value: { names: ['Ada'] }, persisted: false });
  });

  it('does not keep a value longer than its bound, and forgets the one kept before', () => {
    const names = persistent({ ...options(), maxLength: 30 });
    expect(names.set({ names: ['Ada'] })).toBe(true);
    expect(names.set({ names: ['Ada Lovelace', 'Grace Hopper'] })).toBe(false);
    expect(localStorage.getItem(key)).toBeNull();
    expect(names.kept().value.names).toHaveLength(2);
  });

  it('removes the key when set to the empty value', () => {
    const names = persistent(options());
    names.set({ names: ['Ada'] });
    names.set(empty);
    expect(localStorage.getItem(key)).toBeNull();
  });

  it("follows another tab's change while subscribed, and stops listening when the last subscriber leaves", () => {
    const names = persistent(options());
    expect(names.kept().value).toBe(empty);
    const listener = vi.fn();
    const unsubscribe = names.subscribe(listener);
    otherTabWrites(JSON.stringify({ names: ['Ada'] }));
    expect(listener).toHaveBeenCalledTimes(1);
    expect(names.kept().value).toEqual({ names: ['Ada'] });
    otherTabWrites(null);
    expect(names.kept().value).toBe(empty);
    unsubscribe();
    otherTabWrites(JSON.stringify({ names: ['Grace'] }));
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('ignores storage events of other keys and of the other storage', () => {
    const names = persistent(options());
    const listener = vi.fn();
    names.subscribe(listener);
    window.dispatchEvent(new StorageEvent('storage', { key: 'records-explorer:other', storageArea: localStorage }));
    window.dispatchEvent(new StorageEvent('storage', { key, storageArea: sessionStorage }));
    expect(listener).not.toHaveBeenCalled();
  });
});

describe('persistentFamily', () => {
  it('tells one set of listeners about a change under any of its names', () => {
    const family = persistentFamily<{ names: string[] }>();
    const listener = vi.fn();
    family.subscribe(listener);
    const slot = (name: string) => family.slot(name, () => ({ ...options(), key: `${key}:${name}` }));
    slot('a').set({ names: ['Ada'] });
    slot('b').set({ names: ['Grace'] });
    expect(listener).toHaveBeenCalledTimes(2);
    expect(slot('a').kept().value).toEqual({ names: ['Ada'] });
    expect(JSON.parse(localStorage.getItem(`${key}:b`)!)).toEqual({ names: ['Grace'] });
  });
});
