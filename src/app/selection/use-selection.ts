import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import type { GeneratedIds } from '../../formats/generated-mark';
import { maxSelection, selectionStore } from './selection-store';

/** The selection of one deployment, shared by every checkbox and the selection bar. */
export function useSelection(deployment: Deployment) {
  const store = selectionStore();
  const snapshot = useSyncExternalStore(
    store.subscribe,
    () => store.snapshot(deployment),
    () => store.snapshot(deployment),
  );
  const toggle = useCallback(
    (record: ApiRecord, selected?: boolean, generated?: boolean) => store.toggle(deployment, record, selected, generated),
    [store, deployment],
  );
  const clear = useCallback(() => store.clear(deployment), [store, deployment]);
  const remove = useCallback((repoId: string) => store.remove(deployment, repoId), [store, deployment]);
  const setAll = useCallback(
    (records: readonly ApiRecord[], selected: boolean, generated?: GeneratedIds) => store.setAll(deployment, records, selected, generated),
    [store, deployment],
  );
  return useMemo(
    () => ({
      records: snapshot.records,
      generated: snapshot.generated,
      count: snapshot.records.length,
      full: snapshot.records.length >= maxSelection,
      persisted: snapshot.persisted,
      isSelected: (repoId: string) => snapshot.ids.has(repoId),
      toggle,
      remove,
      setAll,
      clear,
    }),
    [snapshot, toggle, remove, setAll, clear],
  );
}
