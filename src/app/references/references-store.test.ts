import { describe, expect, test } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import type { KeyValueStorage } from '../ui/web-storage';
import { assessMatch } from './match-score';
import { maxStoredLength, readStoredCheck, referencesStorageKey, writeStoredCheck, type StoredCheck } from './references-store';

function memoryStorage(): KeyValueStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

const reference = { kind: 'doi', text: '10.11578/1367870', doi: '10.11578/1367870', surnames: [] } as const;
const record = { repo_id: '1367870', title: 'A Reduced Resistive Wall Mode Kinetic Stability Model', doi: '10.11578/1367870' };

const check: StoredCheck = {
  input: '10.11578/1367870',
  leftOut: 0,
  results: [
    {
      reference,
      matches: [
        {
          catalog: 'DC1',
          record,
          assessment: assessMatch(deploymentByKey('DC1')!, reference, record),
          via: 'doi',
          generated: true,
        },
      ],
      failures: [{ catalog: 'PAT', message: 'The server could not be reached.' }],
    },
  ],
};

describe('the kept reference check', () => {
  test('comes back as it was kept', () => {
    const storage = memoryStorage();
    expect(writeStoredCheck(check, storage)).toBe(true);
    expect(readStoredCheck(storage)).toEqual(check);
  });

  test('a check larger than the bound is not kept, and says so', () => {
    const storage = memoryStorage();
    writeStoredCheck(check, storage);
    expect(writeStoredCheck({ ...check, input: 'x'.repeat(maxStoredLength) }, storage)).toBe(false);
    expect(storage.items.has(referencesStorageKey)).toBe(false);
  });

  test('what does not parse is dropped: junk, another version, a match of an unknown catalog', () => {
    const storage = memoryStorage();
    storage.setItem(referencesStorageKey, '{not json');
    expect(readStoredCheck(storage)).toBeUndefined();
    storage.setItem(referencesStorageKey, JSON.stringify({ version: 2, ...check }));
    expect(readStoredCheck(storage)).toBeUndefined();
    const foreign = { ...check.results[0]!, matches: [{ ...check.results[0]!.matches[0]!, catalog: 'XYZ' }] };
    storage.setItem(referencesStorageKey, JSON.stringify({ version: 1, ...check, results: [foreign] }));
    expect(readStoredCheck(storage)?.results[0]!.matches).toEqual([]);
  });
});
