/**
 * Values kept up to a budget of bytes, the least recently used out first once it is spent.
 * One value may take at most a quarter of the budget, so a single large one never empties
 * the rest, and with a budget of 0 nothing is kept.
 */
export class BudgetCache<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly bytes: number }>();
  private used = 0;

  constructor(private readonly budget: number) {}

  /** The value kept under `key`, now the most recently used. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, bytes: number): void {
    if (bytes > this.budget / 4) return;
    this.delete(key);
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    for (const [oldest] of this.entries) {
      if (this.used <= this.budget) break;
      this.delete(oldest);
    }
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.used -= entry.bytes;
  }
}
