import { createHash } from 'node:crypto';
import { deployments } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { searchModel, storeFingerprint } from '../../deployments/search-model';

/**
 * A short digest of what the deployment table asks of a store (sort and date columns,
 * exact-match keys, search columns). Each store puts it in its schema version, so a store
 * built under another table is refused with a rebuild hint instead of answering new sorts
 * and filters with errors, or silently with nothing.
 */
export function modelDigest(tables: readonly Deployment[] = deployments): string {
  const digest = createHash('sha256');
  for (const deployment of tables) digest.update(storeFingerprint(searchModel(deployment)));
  return digest.digest('hex').slice(0, 12);
}
