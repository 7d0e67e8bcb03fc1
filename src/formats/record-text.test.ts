import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { asRecordText, firstRecordText, plainLine, recordTexts, storedText } from './record-text';

describe('record text', () => {
  it('reads the non-empty texts of a field, kept as stored', () => {
    expect(recordTexts(['Physical Review &amp; Letters', '', '  ', null]).map(storedText)).toEqual(['Physical Review &amp; Letters']);
    expect(firstRecordText(['', 'CO<sub>2</sub>']) && storedText(firstRecordText(['', 'CO<sub>2</sub>'])!)).toBe('CO<sub>2</sub>');
    expect(firstRecordText(null)).toBeUndefined();
  });

  it('is decoded for people and kept as stored for the API', () => {
    const venue = asRecordText('Physical Review &amp; Letters <i>B</i>');
    expect(plainLine(venue)).toBe('Physical Review & Letters B');
    expect(storedText(venue)).toBe('Physical Review &amp; Letters <i>B</i>');
  });

  it('cannot be rendered or used as a string without the text model', () => {
    const venue = asRecordText('Physical Review &amp; Letters');
    // @ts-expect-error record text is not a React node: only RichText shows it.
    const node: ReactNode = venue;
    // @ts-expect-error record text is not a string: plainLine or storedText says which form is meant.
    const text: string = venue;
    expect([node, text]).toHaveLength(2);
  });
});
