import { z } from 'zod';
import { deploymentByKey, recordSchema } from '../../deployments/registry';
import { persistent } from '../ui/persistent-store';
import { webStorage, type KeyValueStorage } from '../ui/web-storage';
import { assessMatch } from './match-score';
import { parsedReferenceSchema } from './reader-protocol';
import type { CatalogMatch, ReferenceResult } from './reference-lookup';

/**
 * The last reference check, kept in this browser (localStorage) so the list and its results
 * survive a reload. Nothing of it is sent anywhere. Bounded: a list or results larger than
 * the bound are kept until the reload only, and the page says so.
 */

export const referencesStorageKey = 'records-explorer:references';
/** Most characters kept (localStorage holds some 5 million per site, shared with the app's other stores). */
export const maxStoredLength = 2_000_000;

export interface StoredCheck {
  readonly input: string;
  readonly results: readonly ReferenceResult[];
  readonly leftOut: number;
}

const storedSchema = z.object({
  version: z.literal(1),
  input: z.string(),
  leftOut: z.number().int().nonnegative(),
  results: z.array(
    z.object({
      reference: parsedReferenceSchema,
      // The assessment is not kept: it is made again from the reference and the record, by today's rules.
      matches: z.array(
        z.object({ catalog: z.string(), record: z.unknown(), via: z.enum(['doi', 'title']), generated: z.boolean().default(false) }),
      ),
      failures: z.array(z.object({ catalog: z.string(), message: z.string() })),
    }),
  ),
});

/** The kept check as read back; matches whose catalog or record no longer parses are dropped. */
const checkSchema = storedSchema.transform((stored): StoredCheck => ({
  input: stored.input,
  leftOut: stored.leftOut,
  results: stored.results.map(({ reference, matches, failures }) => ({
    reference,
    matches: matches.flatMap((match): CatalogMatch[] => {
      const deployment = deploymentByKey(match.catalog);
      const record = deployment && recordSchema(deployment).safeParse(match.record);
      return deployment && record?.success
        ? [
            {
              catalog: deployment.key,
              record: record.data,
              assessment: assessMatch(deployment, reference, record.data),
              via: match.via,
              generated: match.generated,
            },
          ]
        : [];
    }),
    failures: failures.flatMap((failure) => {
      const deployment = deploymentByKey(failure.catalog);
      return deployment ? [{ catalog: deployment.key, message: failure.message }] : [];
    }),
  })),
}));

function serializeCheck(check: StoredCheck | undefined): string {
  return JSON.stringify({
    version: 1,
    ...check,
    results: check?.results.map((result) => ({
      ...result,
      matches: result.matches.map(({ catalog, record, via, generated }) => ({ catalog, record, via, generated })),
    })),
  });
}

const kept = (storage: KeyValueStorage | undefined) =>
  persistent<StoredCheck | undefined>({
    storage,
    key: referencesStorageKey,
    schema: checkSchema,
    empty: undefined,
    serialize: serializeCheck,
    maxLength: maxStoredLength,
  });

/** Reads the kept check back; whatever does not parse (an older version, a hand edit) is dropped, never thrown. */
export function readStoredCheck(storage: KeyValueStorage | undefined = webStorage('localStorage')): StoredCheck | undefined {
  return kept(storage).kept().value;
}

/** Keeps a check; false when it is too large or storage refuses it (then it lasts until a reload). */
export function writeStoredCheck(
  check: StoredCheck | undefined,
  storage: KeyValueStorage | undefined = webStorage('localStorage'),
): boolean {
  return kept(storage).set(check);
}
