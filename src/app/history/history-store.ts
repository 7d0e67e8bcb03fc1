import { z } from 'zod';
import { extensionParamOf } from '../../deployments/facets';
import { deploymentKeys, type Deployment, type DeploymentKey } from '../../deployments/schema';
import { readFacetFilterParam } from '../../formats/facet-filters';
import { persistent, type Kept } from '../ui/persistent-store';
import { webStorage, type KeyValueStorage } from '../ui/web-storage';

/**
 * The searches a researcher ran and the ones they saved, kept in localStorage (no account):
 * the last 50 searches, newest first, and named saved searches, each with the time it was
 * last opened so "new since last visit" can ask for what was entered after it.
 * A search is a deployment and the API query string it ran, exactly as the URL carries it.
 */

export const maxRecent = 50;
export const maxSaved = 500;
const storageKey = 'records-explorer:history';

const searchSchema = z.object({
  deployment: z.enum(deploymentKeys),
  /** The query string without `?`, page removed. */
  query: z.string().max(8192),
});

const recentSchema = searchSchema.extend({ at: z.iso.datetime() });
export const savedSchema = searchSchema.extend({
  id: z.string().min(1).max(64),
  name: z.string().trim().min(1).max(200),
  savedAt: z.iso.datetime(),
  lastVisit: z.iso.datetime(),
});

export type RecentSearch = z.infer<typeof recentSchema>;
export type SavedSearch = z.infer<typeof savedSchema>;

export interface HistorySnapshot {
  readonly recent: readonly RecentSearch[];
  readonly saved: readonly SavedSearch[];
  /** False when storage refused the last change: it lasts until reload only. */
  readonly persisted: boolean;
}

/** Items that do not parse (older versions, hand edits) are dropped, never thrown. */
export function validItems<T>(schema: z.ZodType<T>, items: readonly unknown[]): T[] {
  return items.flatMap((item) => {
    const parsed = schema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

type Searches = Pick<HistorySnapshot, 'recent' | 'saved'>;

const storedSchema = z
  .object({ version: z.literal(1), recent: z.array(z.unknown()), saved: z.array(z.unknown()) })
  .transform(({ recent, saved }): Searches => ({
    recent: validItems(recentSchema, recent).slice(0, maxRecent),
    saved: validItems(savedSchema, saved).slice(0, maxSaved),
  }));

/**
 * One ticked value of a facet that selects by an extension parameter (`facet.product_type=X`)
 * is the search the fielded box writes as that parameter (`type:X` → `product_type=X`): both
 * are remembered in the parameter's form, so they are one entry. Two ticked values stay as
 * they are (the parameter takes one).
 */
function oneFormOf(deployment: Pick<Deployment, 'facets'>, entries: readonly (readonly [string, string])[]): [string, string][] {
  const names = entries.map(([name]) => name);
  return entries.map(([name, value]) => {
    const filter = readFacetFilterParam(name);
    if (filter?.mode !== 'select' || names.filter((each) => each === name).length !== 1) return [name, value];
    const facet = deployment.facets.find((candidate) => candidate.name === filter.facet);
    const param = facet && extensionParamOf(facet);
    return param && !names.includes(param) ? [param, value] : [name, value];
  });
}

/** The query string a search is remembered by: the page is where a user was, not what they searched. */
export function searchQuery(deployment: Pick<Deployment, 'facets'>, entries: readonly (readonly [string, string])[]): string {
  // In one order whatever order the URL gave (a fielded box and a ticked filter put the same
  // criteria in different orders), so one search is one entry.
  const kept = oneFormOf(deployment, entries).filter(([name, value]) => name !== 'page' && value.trim() !== '');
  return new URLSearchParams(kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString();
}

// snapshot and subscribe are properties: React's useSyncExternalStore takes them unbound.
export interface HistoryStore {
  snapshot: () => HistorySnapshot;
  /** Puts a search first in the recent list (once: an earlier identical entry moves up). */
  record(deployment: DeploymentKey, query: string, at?: Date): void;
  save(deployment: DeploymentKey, query: string, name: string, at?: Date): SavedSearch;
  /** Marks a saved search as opened now, after its "new since" was read. */
  visit(id: string, at?: Date): void;
  removeSaved(id: string): void;
  clearRecent(): void;
  /** Adds saved searches (from a file) that are not saved yet, as far as the maximum allows; returns how many were added. */
  addSaved(incoming: readonly SavedSearch[]): number;
  subscribe: (listener: () => void) => () => void;
}

export function createHistoryStore(storage: KeyValueStorage | undefined, newId: () => string = () => crypto.randomUUID()): HistoryStore {
  const kept = persistent<Searches>({
    storage,
    key: storageKey,
    schema: storedSchema,
    empty: { recent: [], saved: [] },
    serialize: (searches) => JSON.stringify({ version: 1, ...searches }),
    isEmpty: () => false,
  });
  let shown: [Kept<Searches>, HistorySnapshot] | undefined;

  function read(): HistorySnapshot {
    const current = kept.kept();
    if (shown?.[0] !== current) shown = [current, { ...current.value, persisted: current.persisted }];
    return shown[1];
  }

  function write(recent: readonly RecentSearch[], saved: readonly SavedSearch[]): void {
    kept.set({ recent, saved });
  }

  const same = (a: { deployment: string; query: string }, b: { deployment: string; query: string }) =>
    a.deployment === b.deployment && a.query === b.query;

  return {
    snapshot: read,
    record(deployment, query, at = new Date()) {
      const { recent, saved } = read();
      if (recent[0] && same(recent[0], { deployment, query })) return;
      const entry = { deployment, query, at: at.toISOString() };
      write([entry, ...recent.filter((item) => !same(item, entry))].slice(0, maxRecent), saved);
    },
    save(deployment, query, name, at = new Date()) {
      const { recent, saved } = read();
      const entry = savedSchema.parse({ id: newId(), deployment, query, name, savedAt: at.toISOString(), lastVisit: at.toISOString() });
      write(recent, [entry, ...saved].slice(0, maxSaved));
      return entry;
    },
    visit(id, at = new Date()) {
      const { recent, saved } = read();
      write(
        recent,
        saved.map((item) => (item.id === id ? { ...item, lastVisit: at.toISOString() } : item)),
      );
    },
    removeSaved(id) {
      const { recent, saved } = read();
      write(
        recent,
        saved.filter((item) => item.id !== id),
      );
    },
    clearRecent() {
      write([], read().saved);
    },
    addSaved(incoming) {
      const { recent, saved } = read();
      // A search already saved (same deployment and query) is not added twice.
      const fresh = incoming.filter((item) => !saved.some((existing) => same(existing, item)));
      const ids = new Set(saved.map((item) => item.id));
      const added = fresh.map((item) => (ids.has(item.id) ? { ...item, id: newId() } : item));
      const kept = [...saved, ...added].slice(0, maxSaved);
      write(recent, kept);
      return kept.length - saved.length;
    },
    subscribe: kept.subscribe,
  };
}

let shared: HistoryStore | undefined;

/** The page's one history store, over localStorage. */
export function historyStore(): HistoryStore {
  shared ??= createHistoryStore(webStorage('localStorage'));
  return shared;
}
