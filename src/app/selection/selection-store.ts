import { z } from 'zod';
import { recordSchema, type ApiRecord } from '../../deployments/registry';
import type { Deployment, DeploymentKey } from '../../deployments/schema';
import { noGeneratedIds, type GeneratedIds } from '../../formats/generated-mark';
import { persistentFamily, type Kept } from '../ui/persistent-store';
import { webStorage, type KeyValueStorage } from '../ui/web-storage';

/**
 * The records a user has ticked, per deployment, kept in sessionStorage so that the
 * selection survives paging, other searches and reloads, and ends with the tab. The
 * records themselves are kept (not just identifiers) so that citing and exporting a
 * selection needs no request.
 */

/** Most records a selection holds: enough for a reference list, small enough to cite at once. */
export const maxSelection = 1000;

export function selectionStorageKey(deploymentKey: DeploymentKey): string {
  return `records-explorer:selection:${deploymentKey}`;
}

const storedSelectionSchema = z.object({
  version: z.literal(1),
  records: z.array(z.unknown()),
  /** Which of them the server said are generated demo records (X-Generated-Records). */
  generated: z.array(z.string()).optional(),
});

interface Selected {
  readonly records: readonly ApiRecord[];
  readonly generated: GeneratedIds;
}

export function serializeSelection(records: readonly ApiRecord[], generated: GeneratedIds = noGeneratedIds): string {
  const marked = records.filter((record) => generated.has(record.repo_id)).map((record) => record.repo_id);
  return JSON.stringify({ version: 1, records, ...(marked.length ? { generated: marked } : {}) });
}

/**
 * A stored selection as read back: records that do not parse as this deployment's (an older
 * version, another tool, a hand edit) are dropped, and so are repeats and those past the maximum.
 */
function selectionSchema(deployment: Deployment): z.ZodType<Selected> {
  const schema = recordSchema(deployment);
  return storedSelectionSchema.transform(({ records, generated }) => {
    const byId = new Map<string, ApiRecord>();
    for (const item of records) {
      const parsed = schema.safeParse(item);
      if (parsed.success && !byId.has(parsed.data.repo_id) && byId.size < maxSelection) byId.set(parsed.data.repo_id, parsed.data);
    }
    return { records: [...byId.values()], generated: new Set(generated) };
  });
}

export interface SelectionSnapshot {
  readonly records: readonly ApiRecord[];
  readonly ids: ReadonlySet<string>;
  /** The selected records that are generated demo records. */
  readonly generated: GeneratedIds;
  /** False when storage refused the last change (full, or disabled): it lasts until reload only. */
  readonly persisted: boolean;
}

// subscribe is a property: React's useSyncExternalStore takes it unbound.
export interface SelectionStore {
  snapshot(deployment: Deployment): SelectionSnapshot;
  /** Selects or deselects a record (`generated`: the server says it is demo data); false when the selection is full. */
  toggle(deployment: Deployment, record: ApiRecord, selected?: boolean, generated?: boolean): boolean;
  remove(deployment: Deployment, repoId: string): void;
  /** Selects (as far as the maximum allows) or deselects several records in one change. */
  setAll(deployment: Deployment, records: readonly ApiRecord[], selected: boolean, generated?: GeneratedIds): void;
  clear(deployment: Deployment): void;
  subscribe: (listener: () => void) => () => void;
}

export function createSelectionStore(storage: KeyValueStorage | undefined): SelectionStore {
  const kept = persistentFamily<Selected>();
  const shown = new WeakMap<Kept<Selected>, SelectionSnapshot>();
  const empty: Selected = { records: [], generated: noGeneratedIds };

  const slot = (deployment: Deployment) =>
    kept.slot(deployment.key, () => ({
      storage,
      key: selectionStorageKey(deployment.key),
      schema: selectionSchema(deployment),
      empty,
      serialize: ({ records, generated }) => serializeSelection(records, generated),
      isEmpty: ({ records }) => records.length === 0,
    }));

  function read(deployment: Deployment): SelectionSnapshot {
    const current = slot(deployment).kept();
    let snapshot = shown.get(current);
    if (!snapshot) {
      const { records, generated } = current.value;
      const ids = new Set(records.map((record) => record.repo_id));
      snapshot = { records, ids, generated: new Set([...generated].filter((id) => ids.has(id))), persisted: current.persisted };
      shown.set(current, snapshot);
    }
    return snapshot;
  }

  function write(deployment: Deployment, records: readonly ApiRecord[], generated: GeneratedIds = read(deployment).generated): void {
    slot(deployment).set({ records, generated });
  }

  return {
    snapshot: read,
    toggle(deployment, record, selected, generated = false) {
      const current = read(deployment);
      const isSelected = current.ids.has(record.repo_id);
      const wanted = selected ?? !isSelected;
      if (wanted === isSelected) return true;
      if (!wanted) {
        write(
          deployment,
          current.records.filter((item) => item.repo_id !== record.repo_id),
        );
        return true;
      }
      if (current.records.length >= maxSelection) return false;
      write(deployment, [...current.records, record], generated ? new Set([...current.generated, record.repo_id]) : current.generated);
      return true;
    },
    remove(deployment, repoId) {
      const current = read(deployment);
      if (current.ids.has(repoId))
        write(
          deployment,
          current.records.filter((item) => item.repo_id !== repoId),
        );
    },
    setAll(deployment, records, selected, generated = noGeneratedIds) {
      const current = read(deployment);
      if (!selected) {
        const ids = new Set(records.map((record) => record.repo_id));
        write(
          deployment,
          current.records.filter((item) => !ids.has(item.repo_id)),
        );
        return;
      }
      const added = records.filter(
        (record, index) => !current.ids.has(record.repo_id) && records.findIndex((other) => other.repo_id === record.repo_id) === index,
      );
      write(deployment, [...current.records, ...added].slice(0, maxSelection), new Set([...current.generated, ...generated]));
    },
    clear(deployment) {
      write(deployment, []);
    },
    subscribe: kept.subscribe,
  };
}

let shared: SelectionStore | undefined;

/** The page's one selection store, over sessionStorage. */
export function selectionStore(): SelectionStore {
  shared ??= createSelectionStore(webStorage('sessionStorage'));
  return shared;
}
