import type { Deployment } from '../../deployments/schema';
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

/** A short description of a search for lists: its parameters as "name: value". */
export function describeSearch(query: string): string {
  const parts = [...new URLSearchParams(query)].map(([name, value]) => `${name}: ${value}`);
  return parts.length ? parts.join(' · ') : 'All records';
}
