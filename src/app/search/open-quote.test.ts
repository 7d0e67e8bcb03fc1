import { describe, expect, it } from 'vitest';
import { openQuoteNotice } from './open-quote';

describe('a quote left open in the search box', () => {
  it('is named, with the phrase the search closed it into', () => {
    expect(openQuoteNotice('plasma "solar cell')).toBe(
      'A quote had no closing quote, so it was closed at the end: searched for the phrase "solar cell".',
    );
    expect(openQuoteNotice('"wind" "solar cell')).toBe(
      'A quote had no closing quote, so it was closed at the end: searched for the phrase "solar cell".',
    );
    expect(openQuoteNotice('plasma "')).toBe('The quote at the end of the box has no closing quote and nothing after it.');
  });

  it('says nothing when every quote is closed', () => {
    expect(openQuoteNotice('plasma "solar cell"')).toBeUndefined();
    expect(openQuoteNotice('plasma')).toBeUndefined();
    expect(openQuoteNotice('')).toBeUndefined();
  });
});
