import { describe, expect, test } from 'vitest';
import { deploymentByKey } from '../deployments/registry';
import { validateCriteria } from './criteria-schema';

const lit = deploymentByKey('LIT')!;
const enr = deploymentByKey('ENR')!;

describe('validateCriteria', () => {
  test('accepts what the API accepts', () => {
    expect(
      validateCriteria(lit, {
        q: 'anything "at all" (',
        publication_date_start: '01/15/2020',
        publication_date_end: '2021-12-31',
        has_fulltext: 'false',
        sort: 'publication_date desc',
        order: 'asc',
        rows: '1000',
      }),
    ).toEqual({});
    expect(validateCriteria(enr, { entry_date_start: '01-15-2020' })).toEqual({});
  });

  test('dates must be real days in the deployment format (or ISO)', () => {
    expect(validateCriteria(lit, { publication_date_start: '02/30/2024' })).toHaveProperty('publication_date_start');
    expect(validateCriteria(lit, { publication_date_start: '01-15-2020' })).toHaveProperty('publication_date_start');
    expect(validateCriteria(enr, { publication_date_start: '01/15/2020' }).publication_date_start).toMatch(/MM-DD-YYYY/);
  });

  test('start after end, bad integers, booleans, sort and order', () => {
    expect(validateCriteria(lit, { publication_date_start: '2021-01-02', publication_date_end: '2021-01-01' })).toHaveProperty(
      'publication_date_start',
    );
    expect(validateCriteria(lit, { rows: '0' })).toHaveProperty('rows');
    expect(validateCriteria(lit, { rows: '5000' }).rows).toMatch(/1 to 1,000/);
    expect(validateCriteria(lit, { page: '1.5' })).toHaveProperty('page');
    expect(validateCriteria(lit, { has_fulltext: 'yes' })).toHaveProperty('has_fulltext');
    expect(validateCriteria(lit, { sort: 'author' })).toHaveProperty('sort');
    expect(validateCriteria(lit, { order: 'up' })).toHaveProperty('order');
  });

  test('a parameter of another deployment is named', () => {
    expect(validateCriteria(lit, { mime_type: 'mp4' }).mime_type).toMatch(/not a parameter of Research literature v1/);
  });
});
