import type { DeploymentKey } from '../../deployments/schema';

/** The cite feature's query keys (TanStack Query's key factories): the feature's prefix, then the kind of answer. */
const all = ['cite'] as const;

export const citeKeys = {
  all,
  /** Citations of some records (by identifier) in one style. */
  citations: (deployment: DeploymentKey, style: string, bibtexPrefix: string, ids: readonly string[], generated: readonly string[]) =>
    [...all, 'citations', deployment, style, bibtexPrefix, ids, generated] as const,
  /** The CSL repository's catalog of styles. */
  styleCatalog: () => [...all, 'style-catalog'] as const,
};
