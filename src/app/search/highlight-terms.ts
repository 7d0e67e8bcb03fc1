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
