import { expect, test } from 'vitest';
import { deploymentByKey, paramByName } from '../../deployments/registry';
import type { IntegerParam } from '../../deployments/schema';
import { integerChoices, sortChoices } from './param-options';

const lit = deploymentByKey('LIT')!;
const rows = paramByName(lit, 'rows') as IntegerParam;

test('page sizes include the default and a value from the URL', () => {
  expect(integerChoices(rows, '').map((choice) => choice.value)).toEqual(['10', '20', '50', '100', '200', '500', '1000']);
  expect(integerChoices(rows, '37').map((choice) => choice.value)).toContain('37');
  // An out-of-range value stays visible so the server's complaint about it makes sense.
  expect(integerChoices(rows, '5000').map((choice) => choice.value)).toContain('5000');
});

test('sort choices are labelled from the field table', () => {
  expect(sortChoices(lit, '').map((choice) => choice.label)).toEqual(['Default', 'Relevance', 'Title', 'Publication date', 'Entry date']);
  expect(sortChoices(lit, 'title asc').at(-1)).toEqual({ value: 'title asc', label: 'title asc' });
});
