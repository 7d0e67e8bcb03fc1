import { describe, expect, test } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { criteriaFromFormState, formStateFromEntries, fromDateInput, toDateInput, unreadableDates } from './form-state';
import { entriesOf } from '../navigation/query-params';

const lit = deploymentByKey('LIT')!;
const enr = deploymentByKey('ENR')!;

describe('date conversion', () => {
  test('deployment format ↔ date input (ISO)', () => {
    expect(toDateInput('01/15/2020', lit)).toBe('2020-01-15');
    expect(toDateInput('01-15-2020', enr)).toBe('2020-01-15');
    expect(toDateInput('2020-01-15', enr)).toBe('2020-01-15');
    expect(toDateInput('02/30/2024', lit)).toBe('');
    expect(fromDateInput('2020-01-15', lit)).toBe('01/15/2020');
    expect(fromDateInput('2020-01-15', enr)).toBe('01-15-2020');
  });
});

test('dates a date input cannot show are kept as typed, so the form can say what was refused', () => {
  expect(unreadableDates(lit, entriesOf('?q=x&publication_date_start=02/30/2024&publication_date_end=01/15/2020'))).toEqual({
    publication_date_start: '02/30/2024',
  });
  expect(unreadableDates(enr, entriesOf('?entry_date_end=last%20week'))).toEqual({ entry_date_end: 'last week' });
  // Text criteria are shown in their own boxes; only dates can vanish from the form.
  expect(unreadableDates(lit, entriesOf('?q=02/30/2024&title=x'))).toEqual({});
});

describe('form state ↔ query string', () => {
  test('reads the URL into control values (dates as ISO), ignoring unknown parameters', () => {
    const state = formStateFromEntries(
      lit,
      entriesOf('?q=solar%20cell&publication_date_start=01%2F15%2F2020&rows=10&page=3&mime_type=mp4'),
    );
    expect(state).toEqual({ q: 'solar cell', publication_date_start: '2020-01-15', rows: '10', page: '3' });
  });

  test('writes criteria in table order, without empty values or the page', () => {
    const criteria = criteriaFromFormState(lit, {
      rows: '50',
      q: ' fusion ',
      author: '',
      publication_date_end: '2021-12-31',
      page: '4',
      has_fulltext: 'true',
    });
    expect(Object.entries(criteria)).toEqual([
      ['q', 'fusion'],
      ['publication_date_end', '12/31/2021'],
      ['has_fulltext', 'true'],
      ['rows', '50'],
    ]);
  });

  test('round trip through the URL', () => {
    const search = '?q=a&title=b&entry_date_start=03-04-2019&sort=title&order=asc&rows=100';
    const state = formStateFromEntries(enr, entriesOf(search));
    expect(criteriaFromFormState(enr, state)).toEqual(Object.fromEntries(entriesOf(search)));
  });
});
