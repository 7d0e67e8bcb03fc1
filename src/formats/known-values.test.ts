import { describe, expect, it } from 'vitest';
import { datasetSize, productNumber, links } from '../deployments/fields';
import { firstKnown, hasKnownValue, knownText, knownValues } from './known-values';

describe('upstream placeholders', () => {
  it('are not values: the markers the shipped files hold, in any case', () => {
    for (const marker of ['None', 'null', 'NONE', ' Not Available ', 'N/A', 'n/a', '  ', '']) expect(knownText(marker)).toBeUndefined();
    expect(knownValues(['None', 'PNNL-SA-198442', null, ''])).toEqual(['PNNL-SA-198442']);
    expect(firstKnown(['null', 'ARM0735'])).toBe('ARM0735');
  });

  it('leave real values as they are', () => {
    expect(knownText('AC36-08GO28308; ')).toBe('AC36-08GO28308; ');
    expect(knownText('Nonequilibrium plasma')).toBe('Nonequilibrium plasma');
    expect(knownText('0')).toBe('0');
  });

  it('decide whether a field is shown: size 0 is unknown, other numbers are values', () => {
    expect(hasKnownValue(productNumber, 'None')).toBe(false);
    expect(hasKnownValue(productNumber, 'cdiac:CDIAC-105')).toBe(true);
    expect(hasKnownValue(datasetSize, 0)).toBe(false);
    expect(hasKnownValue(datasetSize, 4_280_000)).toBe(true);
    expect(hasKnownValue({ kind: 'number' }, 0)).toBe(true);
    expect(hasKnownValue(links, [])).toBe(false);
    expect(hasKnownValue(links, [{ rel: 'citation', href: 'https://example.test/' }])).toBe(true);
  });
});
