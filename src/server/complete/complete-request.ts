/**
 * What a type-ahead asks and what it is answered, apart from the completer that answers it,
 * so the store's contract (store/types.ts) names them without importing the facet index.
 */

export interface CompleteRequest {
  /** Facet names, each of a `typeAhead` facet. */
  readonly fields: readonly string[];
  /** What was typed (at most `maxPrefixLength` characters). */
  readonly prefix: string;
  readonly limit: number;
}

export interface CompletedValue {
  readonly field: string;
  readonly value: string;
  readonly count: number;
  readonly variants?: readonly string[];
}
