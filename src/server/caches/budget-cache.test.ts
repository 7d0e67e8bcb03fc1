import { describe, expect, it } from 'vitest';
import { BudgetCache } from './budget-cache';

describe('a cache kept within a budget of bytes', () => {
  it('lets the least recently used go first once the budget is spent', () => {
    const cache = new BudgetCache<string>(100);
    cache.set('a', 'A', 25);
    cache.set('b', 'B', 25);
    cache.set('c', 'C', 25);
    cache.set('d', 'D', 25);
    expect(cache.get('a')).toBe('A');
    cache.set('e', 'E', 25);
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd', 'e'].map((key) => cache.get(key))).toEqual(['A', 'C', 'D', 'E']);
  });

  it('counts a value set again once, at its new size', () => {
    const cache = new BudgetCache<string>(100);
    cache.set('a', 'A', 25);
    cache.set('b', 'B', 25);
    cache.set('a', 'A2', 20);
    cache.set('c', 'C', 25);
    cache.set('d', 'D', 25);
    expect(['a', 'b', 'c', 'd'].map((key) => cache.get(key))).toEqual(['A2', 'B', 'C', 'D']);
  });

  it('keeps no value over a quarter of the budget, and nothing at a budget of 0', () => {
    const cache = new BudgetCache<string>(100);
    cache.set('small', 'S', 10);
    cache.set('large', 'L', 26);
    expect(cache.get('large')).toBeUndefined();
    expect(cache.get('small')).toBe('S');
    const none = new BudgetCache<string>(0);
    none.set('a', 'A', 1);
    expect(none.get('a')).toBeUndefined();
  });
});
