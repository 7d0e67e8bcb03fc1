import { deploymentByKey } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { describeSearch } from '../../formats/search-description';
import { dayOfTimestamp, formatDay } from '../../formats/dates';

/**
 * "New since last visit": the saved criteria, limited to records entered on or after the
 * day of the last visit (the API's date bounds are whole days), newest entries first.
 * Any server that follows the spec answers it; no extension is needed.
 */
export function newSinceQuery(deployment: Deployment, query: string, lastVisit: string): string {
  const params = new URLSearchParams(query);
  const day = dayOfTimestamp(lastVisit);
  if (day) params.set('entry_date_start', formatDay(day, deployment.dateFormat));
  params.set('sort', 'entry_date');
  params.set('order', 'desc');
  params.delete('page');
  return params.toString();
}

/** A search as a line of a list, in the words the filter chips use ("solar cell · Product type: Journal Article"). */
export function describeQuery(deploymentKey: string, query: string): string {
  const deployment = deploymentByKey(deploymentKey);
  const entries = [...new URLSearchParams(query)];
  return deployment ? describeSearch(deployment, entries) : entries.map(([name, value]) => `${name}: ${value}`).join(' · ');
}
