import type { z } from 'zod';
import type { KeyValueStorage } from './web-storage';

/**
 * A value the app keeps in Web Storage (history, selection, the reference check, preferences),
 * read and written in one way: what is read is validated by a zod schema, and whatever does
 * not parse (an older version, another tool, a hand edit) reads as the empty value, never
 * throws; a write storage refuses (full, blocked) keeps the value for this page only and says
 * so; another tab's change (a storage event) is read again and announced to subscribers.
 */

export interface PersistentOptions<T> {
  readonly storage: KeyValueStorage | undefined;
  readonly key: string;
  /** What a kept value must be: JSON text parsed, or the text itself when `text` is set. */
  readonly schema: z.ZodType<T>;
  /** The value when nothing valid is kept; setting it removes the key. */
  readonly empty: T;
  /** Kept as the string itself rather than JSON (public/theme.js reads the theme before the first paint). */
  readonly text?: boolean;
  /** How a value is written (JSON, or the text itself, by default); a value with more characters than `maxLength` is not kept. */
  readonly serialize?: (value: T) => string;
  readonly maxLength?: number;
  /** A value to remove rather than write (by default the empty value itself). */
  readonly isEmpty?: (value: T) => boolean;
}

export interface Kept<T> {
  readonly value: T;
  /** False when storage refused the last change: it lasts until the page is left. */
  readonly persisted: boolean;
}

export interface Persistent<T> {
  /** The value and whether it is kept, the same object until either changes (useSyncExternalStore's getSnapshot). */
  readonly kept: () => Kept<T>;
  /** Writes a value; false when it could not be kept. */
  readonly set: (value: T) => boolean;
  /** Calls the listener on every change, this page's or another tab's; returns the unsubscribe. */
  readonly subscribe: (listener: () => void) => () => void;
}

/** Values under several keys with one set of listeners (one selection per deployment). */
export interface PersistentFamily<T> {
  /** The value under a name; `options` is read only the first time the name is used. */
  readonly slot: (name: string, options: () => PersistentOptions<T>) => Persistent<T>;
  readonly subscribe: (listener: () => void) => () => void;
}

function load<T>({ storage, key, schema, empty, text }: PersistentOptions<T>): T {
  try {
    const stored = storage?.getItem(key);
    if (stored == null) return empty;
    const parsed = schema.safeParse(text ? stored : JSON.parse(stored));
    return parsed.success ? parsed.data : empty;
  } catch {
    // Blocked storage or text that is not JSON: nothing readable is kept.
    return empty;
  }
}

function save<T>(
  { storage, key, empty, text, serialize = text ? String : JSON.stringify, maxLength = Infinity, isEmpty }: PersistentOptions<T>,
  value: T,
) {
  if (!storage) return false;
  try {
    const written = (isEmpty ? isEmpty(value) : value === empty) ? undefined : serialize(value);
    // A value too long to keep also forgets the one kept before, which a reload would bring back.
    if (written === undefined || written.length > maxLength) storage.removeItem(key);
    else storage.setItem(key, written);
    return written === undefined || written.length <= maxLength;
  } catch {
    return false;
  }
}

export function persistentFamily<T>(): PersistentFamily<T> {
  const slots = new Map<string, { options: PersistentOptions<T>; current?: Kept<T> }>();
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  const onStorage = (event: StorageEvent) => {
    let changed = false;
    for (const slot of slots.values()) {
      // A null key is another tab clearing the whole storage.
      if (event.storageArea === slot.options.storage && (event.key === null || event.key === slot.options.key)) {
        slot.current = undefined;
        changed = true;
      }
    }
    if (changed) notify();
  };
  const subscribe = (listener: () => void) => {
    if (!listeners.size) globalThis.addEventListener?.('storage', onStorage);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (!listeners.size) globalThis.removeEventListener?.('storage', onStorage);
    };
  };
  return {
    subscribe,
    slot(name, options) {
      let slot = slots.get(name);
      if (!slot) slots.set(name, (slot = { options: options() }));
      const entry = slot;
      return {
        kept: () => (entry.current ??= { value: load(entry.options), persisted: entry.options.storage !== undefined }),
        set(value) {
          const persisted = save(entry.options, value);
          entry.current = { value, persisted };
          notify();
          return persisted;
        },
        subscribe,
      };
    },
  };
}

/** One value kept under one key. */
export function persistent<T>(options: PersistentOptions<T>): Persistent<T> {
  return persistentFamily<T>().slot(options.key, () => options);
}
