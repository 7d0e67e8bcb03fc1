import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../deployments/registry';
import { parseBooleanValue, parseOrderValue, parseSortValue, parseWholeNumberValue } from './param-values';

const lit = deploymentByKey('LIT')!;

describe('parameter value rules shared by the server and the browser', () => {
  it('accepts sort fields alone or with a direction, in the upstream combined form', () => {
    expect(parseSortValue(lit, 'title')).toEqual({ field: 'title' });
    expect(parseSortValue(lit, ' publication_date  DESC ')).toEqual({ field: 'publication_date', order: 'desc' });
    expect(parseSortValue(lit, 'relevance asc')).toEqual({ field: 'relevance', order: 'asc' });
  });

  it('rejects unknown sort fields, bad directions and trailing words', () => {
    for (const value of ['titel', 'title sideways', 'title asc extra', '', 'doi']) expect(parseSortValue(lit, value)).toBeUndefined();
  });

  it('reads order in any case and nothing else', () => {
    expect(parseOrderValue('ASC')).toBe('asc');
    expect(parseOrderValue('descending')).toBeUndefined();
  });

  it('takes whole numbers in plain digits within 1..max only', () => {
    expect(parseWholeNumberValue('1000', 1000)).toBe(1000);
    for (const value of ['0', '1001', '-1', '1.5', '1e3', '0x10', 'abc', '']) expect(parseWholeNumberValue(value, 1000)).toBeUndefined();
  });

  it('takes true and false in any case only', () => {
    expect(parseBooleanValue('TRUE')).toBe(true);
    expect(parseBooleanValue('false')).toBe(false);
    for (const value of ['yes', '1', '', 'truee']) expect(parseBooleanValue(value)).toBeUndefined();
  });
});
