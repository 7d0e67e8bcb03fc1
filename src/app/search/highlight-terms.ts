import { fieldByName, paramByName } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { queryTerms, type QueryTerm } from '../../formats/query-words';
import type { Entries } from '../navigation/query-params';

/** The words a search's text criteria ask of one field: those of every text parameter over its index column. */
export function highlightTerms(deployment: Deployment, entries: Entries, fieldName: string): QueryTerm[] {
  const column = fieldByName(deployment, fieldName)?.search;
  if (!column) return [];
  const queries = entries
    .filter(([name]) => {
      const param = paramByName(deployment, name);
      return param?.kind === 'text' && param.columns.includes(column);
    })
    .map(([, value]) => value);
  return queryTerms(queries);
}

/** The words to mark in each field of a result, by field name; a field no criterion searches has none. */
export type FieldTerms = ReadonlyMap<string, readonly QueryTerm[]>;

/**
 * Every searched field's words at once, so `author=` marks the author line and `title=` the
 * title, as the search model routes each parameter to its columns (not only `q`, which reads all).
 */
export function fieldTerms(deployment: Deployment, entries: Entries): FieldTerms {
  return new Map(
    deployment.fields
      .filter((field) => field.search)
      .map((field) => [field.name, highlightTerms(deployment, entries, field.name)] as const)
      .filter(([, terms]) => terms.length > 0),
  );
}
