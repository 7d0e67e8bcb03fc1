import type { Deployment } from '../../deployments/schema';
import { isPageNumber, kindOf, paramKinds } from '../../formats/param-kinds';
import type { CriteriaValues } from '../../client/criteria-schema';
import { firstValues, type Entries } from '../navigation/query-params';

/**
 * The search form's state and its conversion to and from the API's query string.
 * Date inputs hold ISO `YYYY-MM-DD` (what <input type="date"> speaks); the URL and the API
 * hold the deployment's own format.
 */

/** Parameter name → control value. */
export type FormState = Readonly<Record<string, string>>;

/** A date parameter value (deployment format or ISO) as a date input value, or '' if unreadable. */
export const toDateInput = (value: string, deployment: Deployment) => paramKinds.date.toControl(deployment, value);

/** A date input value as the deployment's date parameter (MM/DD/YYYY or MM-DD-YYYY). */
export const fromDateInput = (value: string, deployment: Deployment) => paramKinds.date.fromControl(deployment, value);

export function formStateFromEntries(deployment: Deployment, entries: Entries): FormState {
  const values = firstValues(entries);
  const state: Record<string, string> = {};
  for (const param of deployment.params) {
    const value = values[param.name];
    if (value === undefined) continue;
    state[param.name] = kindOf(param).toControl(deployment, value);
  }
  return state;
}

/**
 * Date criteria of the URL that no date input can show (an impossible date such as
 * 02/30/2024, or text), by parameter name, so the form can say what was asked for.
 */
export function unreadableDates(deployment: Deployment, entries: Entries): Record<string, string> {
  const values = firstValues(entries);
  const unreadable: Record<string, string> = {};
  for (const param of deployment.params) {
    const value = values[param.name]?.trim();
    if (value && kindOf(param).toControl(deployment, value) === '') unreadable[param.name] = value;
  }
  return unreadable;
}

/**
 * The criteria a form submits, in the deployment table's order. `page` is left out: a new
 * search starts on the first page.
 */
export function criteriaFromFormState(deployment: Deployment, state: FormState): CriteriaValues {
  const criteria: Record<string, string> = {};
  for (const param of deployment.params) {
    if (isPageNumber(param)) continue;
    const raw = state[param.name]?.trim() ?? '';
    if (raw === '') continue;
    criteria[param.name] = kindOf(param).fromControl(deployment, raw);
  }
  return criteria;
}
