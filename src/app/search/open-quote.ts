/**
 * The query language closes a quote left open at the end of the box (query-tokens.ts), so
 * the search runs; the person is told, since what they meant as one word may now be a phrase
 * running to the end. Every `"` opens or closes a phrase there, so an odd count is an open one.
 */
export function openQuoteNotice(text: string): string | undefined {
  let quotes = 0;
  let last = -1;
  for (let index = 0; index < text.length; index++) {
    if (text[index] === '"') {
      quotes++;
      last = index;
    }
  }
  if (quotes % 2 === 0) return undefined;
  const phrase = text.slice(last + 1).trim();
  return phrase
    ? `A quote had no closing quote, so it was closed at the end: searched for the phrase "${phrase}".`
    : 'The quote at the end of the box has no closing quote and nothing after it.';
}
