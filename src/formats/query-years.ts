/**
 * A year among the words of the main search: `2016`, or a range `2010-2015`, matches the
 * word as written or a record published in those years (docs/decisions.md, "Years in the
 * box"). Shared by the server's parser, which reads it so, and the app, which says so.
 */

export interface YearRange {
  readonly from: number;
  readonly to: number;
}

/** Years a publication date can plausibly hold: a four-digit number outside them is only a number. */
const firstYear = 1000;
const lastYear = 2999;

const yearPattern = /^(\d{4})(?:[-\u2010-\u2015](\d{4}))?$/;

/** The years a word of the query names, or undefined when it names none (a reversed range names none). */
export function yearRangeOf(word: string): YearRange | undefined {
  const match = yearPattern.exec(word);
  if (!match) return undefined;
  const from = Number(match[1]);
  const to = match[2] === undefined ? from : Number(match[2]);
  if (from < firstYear || to > lastYear || to < from) return undefined;
  return { from, to };
}
