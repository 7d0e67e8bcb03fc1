import { fieldByName, sortFields } from '../../deployments/registry';
import type { Deployment, IntegerParam } from '../../deployments/schema';

/** Choices of the select-type controls, derived from the deployment table. */

export interface Choice {
  readonly value: string;
  readonly label: string;
}

export const booleanChoices: readonly Choice[] = [
  { value: '', label: 'Any' },
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

export const orderChoices: readonly Choice[] = [
  { value: '', label: 'Default' },
  { value: 'asc', label: 'Ascending' },
  { value: 'desc', label: 'Descending' },
];

export function sortChoices(deployment: Deployment, current: string): Choice[] {
  const choices: Choice[] = [
    { value: '', label: 'Default' },
    ...sortFields(deployment).map((name) => ({
      value: name,
      label: name === 'relevance' ? 'Relevance' : (fieldByName(deployment, name)?.label ?? name),
    })),
  ];
  // A value from a shared link (the combined `title asc` form, say) stays selectable.
  if (current && !choices.some((choice) => choice.value === current)) choices.push({ value: current, label: current });
  return choices;
}

const integerSteps = [10, 20, 50, 100, 200, 500, 1000];

/** Page sizes up to the parameter's maximum, with its default and the current value. */
export function integerChoices(param: IntegerParam, current: string): Choice[] {
  const values = new Set(integerSteps.filter((step) => step <= param.max));
  values.add(param.default);
  const currentNumber = Number(current);
  if (current !== '' && Number.isInteger(currentNumber) && currentNumber > 0) values.add(currentNumber);
  const choices = [...values].sort((a, b) => a - b).map((value) => ({ value: String(value), label: String(value) }));
  // An unreadable value from the URL stays visible, so the server's complaint about it makes sense.
  if (current !== '' && !choices.some((choice) => choice.value === current)) choices.push({ value: current, label: current });
  return choices;
}
