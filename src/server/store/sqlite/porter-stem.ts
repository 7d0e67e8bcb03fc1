/**
 * FTS5's porter stemmer as it behaves, for query words tokenized in JavaScript
 * (query-tokenizer.ts): Porter's 1980 rules with FTS5's own readings, checked against FTS5
 * over the real records' words (query-tokenizer.test.ts). It works on a token's UTF-8
 * bytes, as FTS5 does: every byte of a non-ASCII letter is a consonant, and a token of fewer
 * than 3 or more than 64 bytes is left as it is.
 */

const code = (letter: string) => letter.charCodeAt(0);
const [a, e, i, o, u, y, w, x, l, s, z, t] = [
  code('a'),
  code('e'),
  code('i'),
  code('o'),
  code('u'),
  code('y'),
  code('w'),
  code('x'),
  code('l'),
  code('s'),
  code('z'),
  code('t'),
];

const shortest = 3;
const longest = 64;

/** Whether byte `c` is a vowel; `y` is one after a consonant. */
const isVowel = (c: number, yIsVowel: boolean) => c === a || c === e || c === i || c === o || c === u || (yIsVowel && c === y);

/** Past the first vowel-consonant sequence of word[from, to): the index after it, or 0 where there is none. */
function pastVowelConsonant(word: Uint8Array, from: number, to: number, previousConsonant: boolean): number {
  let consonant = previousConsonant;
  let at = from;
  for (; at < to; at++) if (!(consonant = !isVowel(word[at]!, consonant))) break;
  for (at++; at < to; at++) if ((consonant = !isVowel(word[at]!, consonant))) return at + 1;
  return 0;
}

/** Porter's measure m of word[0, end) above 0, above 1, equal to 1. */
const measureAbove0 = (word: Uint8Array, end: number) => pastVowelConsonant(word, 0, end, false) !== 0;
function measureAbove1(word: Uint8Array, end: number): boolean {
  const past = pastVowelConsonant(word, 0, end, false);
  return past !== 0 && pastVowelConsonant(word, past, end, true) !== 0;
}
function measureIs1(word: Uint8Array, end: number): boolean {
  const past = pastVowelConsonant(word, 0, end, false);
  return past !== 0 && pastVowelConsonant(word, past, end, true) === 0;
}

/** *o: word[0, end) ends consonant, vowel, consonant, the last not w, x or y. */
function endsCvc(word: Uint8Array, end: number): boolean {
  const last = word[end - 1];
  if (last === w || last === x || last === y) return false;
  let mask = 0;
  let consonant = false;
  for (let at = 0; at < end; at++) {
    consonant = !isVowel(word[at]!, consonant);
    mask = ((mask << 1) | (consonant ? 1 : 0)) & 7;
  }
  return mask === 5;
}

/** *v*: word[0, end) has a vowel (`y` counts anywhere but first). */
function hasVowel(word: Uint8Array, end: number): boolean {
  for (let at = 0; at < end; at++) if (isVowel(word[at]!, at > 0)) return true;
  return false;
}

type Condition = (word: Uint8Array, stemEnd: number) => boolean;
const always: Condition = () => true;
const above1WithSOrT: Condition = (word, end) => (word[end - 1] === s || word[end - 1] === t) && measureAbove1(word, end);

/** A suffix, the condition on the stem before it, and what replaces it. */
interface Rule {
  readonly suffix: Uint8Array;
  readonly condition: Condition;
  readonly replacement: Uint8Array;
}

const bytes = (text: string) => new Uint8Array([...text].map((c) => c.charCodeAt(0)));
const rules = (condition: Condition, pairs: readonly (readonly [string, string])[]): Rule[] =>
  pairs.map(([suffix, replacement]) => ({ suffix: bytes(suffix), condition, replacement: bytes(replacement) }));

/**
 * The first rule whose suffix the word ends in, with some stem before it, is the step's
 * only candidate: where its condition fails, no later rule is tried.
 */
const step2 = rules(measureAbove0, [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['logi', 'log'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
]);
const step3 = rules(measureAbove0, [
  ['ical', 'ic'],
  ['ness', ''],
  ['icate', 'ic'],
  ['iciti', 'ic'],
  ['ful', ''],
  ['ative', ''],
  ['alize', 'al'],
]);
const step4 = [
  ...rules(measureAbove1, [
    ['al', ''],
    ['ance', ''],
    ['ence', ''],
    ['er', ''],
    ['ic', ''],
    ['able', ''],
    ['ible', ''],
    ['ant', ''],
    ['ement', ''],
    ['ment', ''],
    ['ent', ''],
  ]),
  ...rules(above1WithSOrT, [['ion', '']]),
  ...rules(measureAbove1, [
    ['ou', ''],
    ['ism', ''],
    ['ate', ''],
    ['iti', ''],
    ['ous', ''],
    ['ive', ''],
    ['ize', ''],
  ]),
];
const step1b = [...rules(measureAbove0, [['eed', 'ee']]), ...rules(hasVowel, [['ed', '']]), ...rules(hasVowel, [['ing', '']])];
const step1b2 = rules(always, [
  ['at', 'ate'],
  ['bl', 'ble'],
  ['iz', 'ize'],
]);

function endsWith(word: Uint8Array, end: number, suffix: Uint8Array): boolean {
  // Some stem must be left before the suffix.
  if (end <= suffix.length) return false;
  for (let k = 0; k < suffix.length; k++) if (word[end - suffix.length + k] !== suffix[k]) return false;
  return true;
}

/** Applies the step's candidate rule to word[0, end): the new end, and which rule was applied (-1: none). */
function apply(word: Uint8Array, end: number, step: readonly Rule[]): [number, number] {
  for (let r = 0; r < step.length; r++) {
    const { suffix, condition, replacement } = step[r]!;
    if (!endsWith(word, end, suffix)) continue;
    const stem = end - suffix.length;
    if (!condition(word, stem)) return [end, -1];
    word.set(replacement, stem);
    return [stem + replacement.length, r];
  }
  return [end, -1];
}

/** The stem of a token's UTF-8 bytes (`word` has room for 64 bytes past its length: a rule may lengthen it). */
export function porterStem(word: Uint8Array, length: number): number {
  if (length > longest || length < shortest) return length;
  let end = length;
  // Step 1a: plurals.
  if (word[end - 1] === s) {
    if (word[end - 2] === e) end -= (end > 4 && word[end - 4] === s && word[end - 3] === s) || (end > 3 && word[end - 3] === i) ? 2 : 1;
    else if (word[end - 2] !== s) end -= 1;
  }
  // Step 1b: -ed, -ing, then tidying what they leave.
  const [afterEd, applied] = apply(word, end, step1b);
  // Only -ed and -ing (not -eed) have what they leave tidied.
  end = applied > 0 ? tidyAfter1b(word, afterEd) : afterEd;
  // Step 1c: y -> i after a vowel somewhere before it.
  if (word[end - 1] === y && hasVowel(word, end - 1)) word[end - 1] = i;
  [end] = apply(word, end, step2);
  [end] = apply(word, end, step3);
  [end] = apply(word, end, step4);
  // Step 5a: a final e.
  if (word[end - 1] === e && (measureAbove1(word, end - 1) || (measureIs1(word, end - 1) && !endsCvc(word, end - 1)))) end--;
  // Step 5b: ll -> l.
  if (end > 1 && word[end - 1] === l && word[end - 2] === l && measureAbove1(word, end - 1)) end--;
  return end;
}

function tidyAfter1b(word: Uint8Array, end: number): number {
  const [tidied, replaced] = apply(word, end, step1b2);
  if (replaced >= 0) return tidied;
  const last = word[end - 1]!;
  if (!isVowel(last, false) && last !== l && last !== s && last !== z && last === word[end - 2]) return end - 1;
  if (measureIs1(word, end) && endsCvc(word, end)) {
    word[end] = e;
    return end + 1;
  }
  return end;
}
