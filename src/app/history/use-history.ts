import { useSyncExternalStore } from 'react';
import { historyStore } from './history-store';

/** The recent and saved searches, shared by every part of the page that shows them. */
export function useHistory() {
  const store = historyStore();
  const snapshot = useSyncExternalStore(store.subscribe, store.snapshot, store.snapshot);
  return { ...snapshot, store };
}
