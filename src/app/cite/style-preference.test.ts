import { describe, expect, it } from 'vitest';
import { readRecentStyles, readStylePreference, recentStylesKept, rememberRecentStyle, writeStylePreference } from './style-preference';

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}

describe('the remembered citation style', () => {
  it('keeps a style of the CSL repository as well as a built-in one', () => {
    const storage = memoryStorage();
    writeStylePreference('csl:physical-review-letters', storage);
    expect(readStylePreference(storage)).toBe('csl:physical-review-letters');
    writeStylePreference('ieee', storage);
    expect(readStylePreference(storage)).toBe('ieee');
  });

  it('falls back to APA for anything else stored under its key', () => {
    for (const stored of ['csl:', 'csl:../x', 'nature', '']) {
      expect(readStylePreference(memoryStorage({ 'records-explorer:citation-style': stored }))).toBe('apa');
    }
  });
});

describe('recent styles', () => {
  it('puts the latest first, once, and keeps the last few', () => {
    const storage = memoryStorage();
    rememberRecentStyle({ id: 'csl:nature', title: 'Nature' }, storage);
    rememberRecentStyle({ id: 'csl:physical-review-letters', title: 'Physical Review Letters' }, storage);
    expect(rememberRecentStyle({ id: 'csl:nature', title: 'Nature' }, storage).map((style) => style.id)).toEqual([
      'csl:nature',
      'csl:physical-review-letters',
    ]);
    for (let index = 0; index < 10; index += 1) rememberRecentStyle({ id: `csl:style-${index}`, title: `Style ${index}` }, storage);
    const recent = readRecentStyles(storage);
    expect(recent).toHaveLength(recentStylesKept);
    expect(recent[0]).toEqual({ id: 'csl:style-9', title: 'Style 9' });
  });

  it('reads damaged or foreign storage as no recent styles', () => {
    for (const stored of ['{', '"x"', '[{"id":"nature","title":"Nature"}]', '[{"id":"csl:nature"}]']) {
      expect(readRecentStyles(memoryStorage({ 'records-explorer:recent-citation-styles': stored }))).toEqual([]);
    }
  });

  it('lasts for the page when storage refuses to write', () => {
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {},
    };
    expect(rememberRecentStyle({ id: 'csl:nature', title: 'Nature' }, full)).toEqual([{ id: 'csl:nature', title: 'Nature' }]);
  });
});
