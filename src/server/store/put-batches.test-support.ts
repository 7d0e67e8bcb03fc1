import type { DeploymentKey } from '../../deployments/schema';
import { openStoreWriter } from './sqlite/sqlite';
import type { StoredRecord } from './types';

/** Writes each batch of records into the store at `path` as one put, in one writer's life (as `records load` does). */
export function putBatches(path: string, batches: readonly (readonly StoredRecord[])[], key: DeploymentKey = 'LIT'): void {
  const writer = openStoreWriter(path);
  try {
    for (const batch of batches) writer.put(key, batch);
  } finally {
    writer.close();
  }
}
