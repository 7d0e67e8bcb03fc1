import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldText } from '../../formats/fold-text';
import { indexTokens } from '../../formats/query-words';
import { suggestQuery, type Vocabulary } from './suggest-query';
import { osaDistance, Suggester } from './suggester';

const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'.split(''));
const word = (min: number, max: number) => fc.string({ unit: letters, minLength: min, maxLength: max });

/** One edit of `text`: delete, insert, substitute or swap two neighbours, at `at`. */
function edited(text: string, kind: number, at: number, letter: string): string {
  const i = at % text.length;
  switch (kind % 4) {
    case 0:
      return text.slice(0, i) + text.slice(i + 1);
    case 1:
      return text.slice(0, i) + letter + text.slice(i);
    case 2:
      return text.slice(0, i) + letter + text.slice(i + 1);
    default:
      return i + 1 < text.length ? text.slice(0, i) + text[i + 1] + text[i] + text.slice(i + 2) : text;
  }
}

const edit = fc.tuple(fc.nat(3), fc.nat(50), letters);

describe('the suggester', () => {
  it('finds exactly the vocabulary words within the distance, as the plain distance counts it (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(word(1, 8), { minLength: 1, maxLength: 60 }),
        word(0, 9),
        fc.integer({ min: 0, max: 2 }),
        (words, query, max) => {
          const suggester = new Suggester(words.map((w, i) => [w, i + 1] as const));
          const expected = words.filter((w) => osaDistance(w, query) <= max).sort();
          expect(
            suggester
              .nearest(query, max)
              .map((near) => near.word)
              .sort(),
          ).toEqual(expected);
        },
      ),
    );
  });

  it('gets a word back from one or two edits of it (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(word(5, 12), { minLength: 1, maxLength: 40 }), fc.nat(), edit, edit, (words, pick, first, second) => {
        const target = words[pick % words.length]!;
        const typed = edited(edited(target, ...first), ...second);
        // Optimal string alignment edits no letter twice: a swap across a deleted letter is three edits.
        fc.pre(osaDistance(target, typed) <= 2);
        const found = new Suggester(words.map((w) => [w, 1] as const)).nearest(typed, 2).map((near) => near.word);
        expect(found).toContain(target);
      }),
    );
  });

  it('counts a transposition as one edit, and ranks the nearest first, then the word most records hold', () => {
    const suggester = new Suggester([
      ['temperature', 500],
      ['temperate', 40],
      ['tempered', 3],
    ]);
    expect(suggester.nearest('tempearture', 2)[0]).toEqual({ word: 'temperature', distance: 1, weight: 500 });
    expect(new Suggester([['plasma', 1]]).nearest('palsma', 1).map((near) => near.word)).toEqual(['plasma']);
    const ranked = new Suggester([
      ['pressure', 900],
      ['pressures', 10],
      ['presume', 5],
    ]).nearest('presure', 2);
    expect(ranked.map((near) => near.word)).toEqual(['pressure', 'presume', 'pressures']);
  });
});

/** A vocabulary of these words, each held by the given number of records, read as the index reads words. */
function vocabularyOf(entries: readonly (readonly [string, number])[]): Vocabulary {
  const form = (text: string) => indexTokens(text)[0]?.term ?? text;
  const held = new Map<string, number>();
  for (const [text, weight] of entries) held.set(form(text), Math.max(held.get(form(text)) ?? 0, weight));
  return {
    suggester: new Suggester(entries.map(([text]) => [text, held.get(form(text))!] as const)),
    recordsWith: (text) => held.get(form(foldText(text))) ?? 0,
    indexFormOf: form,
  };
}

describe('suggestions for a search', () => {
  const vocabulary = vocabularyOf([
    ['temperature', 400],
    ['temperatures', 120],
    ['pressure', 300],
    ['sustainability', 40],
    ['kneafsey', 3],
    ['presume', 2],
    ['plasma', 800],
    ['plasmas', 5],
  ]);

  it('corrects the words no record holds and keeps the rest of the search as typed', () => {
    expect(suggestQuery('tempearture pressure', vocabulary)).toEqual({
      q: 'temperature pressure',
      words: [{ word: 'tempearture', suggestion: 'temperature' }],
      reason: 'unknown',
    });
    expect(suggestQuery('Sustainbaility AND "tempearture" -presure kneafsy', vocabulary)?.q).toBe(
      'sustainability AND "tempearture" -presure kneafsey',
    );
  });

  it('offers a far commoner word one edit away from a rare word records hold', () => {
    const withSlip = vocabularyOf([
      ['pressure', 300],
      ['presure', 2],
    ]);
    expect(suggestQuery('presure', withSlip)).toEqual({
      q: 'pressure',
      words: [{ word: 'presure', suggestion: 'pressure' }],
      reason: 'rarer',
    });
  });

  it('corrects only the unknown word of a search that finds nothing, keeping its rarer known words as typed', () => {
    const mixed = vocabularyOf([
      ['snow', 2],
      ['show', 400],
      ['depth', 30],
    ]);
    // Alone, "snow" reads as a slip of the far commoner "show"; beside "deepth", which no record
    // holds, it is a word of the work sought and stays.
    expect(suggestQuery('snow', mixed)?.q).toBe('show');
    expect(suggestQuery('snow deepth', mixed)).toEqual({
      q: 'snow depth',
      words: [{ word: 'deepth', suggestion: 'depth' }],
      reason: 'unknown',
    });
  });

  it('suggests nothing for words of the vocabulary, prefixes, numbers, or words too far from any (property)', () => {
    fc.assert(
      fc.property(
        fc.subarray(['temperature', 'pressure', 'sustainability', 'kneafsey', 'plasma', 'plasmas', 'presume'], { minLength: 1 }),
        (words) => {
          expect(suggestQuery(words.join(' '), vocabulary)).toBeUndefined();
        },
      ),
    );
    for (const q of ['tempearture*', '2016', 'zzzzzzzz', 'ab', '"plasam"']) expect(suggestQuery(q, vocabulary), q).toBeUndefined();
  });
});
