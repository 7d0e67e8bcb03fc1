import { porterStem } from './porter-stem';

/**
 * FTS5's tokenizer (`porter unicode61 remove_diacritics 2`, schema.ts) in JavaScript, for
 * query text: asking FTS5 through a scratch table (fts5-adapter.ts's scratchTokenizer) is
 * three statements a word, as much as reading the word's postings. unicode61 splits text
 * into runs of token characters and folds each character on its own, so what it does to a
 * character is learnt from FTS5 itself the first time one is met (a character outside ASCII:
 * whether it is a token character, continues a token only, as a diacritic does, or separates
 * tokens, and what it folds to) and kept for the process: the answer is the linked SQLite's,
 * whatever its Unicode tables. Then each token is stemmed as FTS5's porter does (porter-stem.ts).
 */

/** What unicode61 does with a character outside ASCII. */
interface CharacterRule {
  /** Starts or continues a token (a letter, a number, a private-use character). */
  readonly letter: boolean;
  /** Continues a token without starting one (a combining diacritic). */
  readonly joins: boolean;
  /** What it folds to. */
  readonly fold: string;
  /** Whether the probes showed the rule: text with a character they did not is tokenized by FTS5. */
  readonly sure: boolean;
}

const separator: CharacterRule = { letter: false, joins: false, fold: '', sure: true };
const unsure: CharacterRule = { letter: false, joins: false, fold: '', sure: false };

const learnt = new Map<number, CharacterRule>();

/** ASCII letters and digits are token characters, folded to lower case; every other ASCII character separates. */
function asciiLetter(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * The probes that show FTS5's rule for character c, in order: `a c a` is one token unless
 * c separates, `c a` begins with c's fold only if c starts tokens. Neither is changed by the
 * stemmer (no rule touches a word ending in `a`).
 */
const probes = (c: string) => `a${c}a ${c}a`;

/** Reads each character's rule from the tokens FTS5 made of their probes; where they are not as expected, none is sure. */
function readRules(characters: readonly string[], tokens: readonly string[]): void {
  let next = 0;
  const rules = characters.map((): CharacterRule => {
    const inner = tokens[next++];
    if (inner === 'a') {
      // `a`, `a`, then the `a` of `c a`.
      return tokens[next++] === 'a' && tokens[next++] === 'a' ? separator : unsure;
    }
    if (inner === undefined) return unsure;
    const fold = inner.slice(1, -1);
    const leading = tokens[next++];
    // A character folding to nothing shows no difference between starting a token and joining one.
    return fold !== '' && (leading === `${fold}a` || leading === 'a') ? { letter: leading !== 'a', joins: true, fold, sure: true } : unsure;
  });
  characters.forEach((c, k) => learnt.set(c.codePointAt(0)!, next === tokens.length ? rules[k]! : unsure));
}

/** Scratch bytes for stemming one token (a stem may grow by a byte or two). */
const scratch = new Uint8Array(1024);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function stemmed(token: string, ascii: boolean): string {
  if (ascii) {
    if (token.length < 3 || token.length > 64) return token;
    for (let k = 0; k < token.length; k++) scratch[k] = token.charCodeAt(k);
    const end = porterStem(scratch, token.length);
    return end === token.length && !changedInPlace(token, end) ? token : String.fromCharCode(...scratch.subarray(0, end));
  }
  const { written } = encoder.encodeInto(token, scratch.subarray(0, scratch.length - 8));
  // Longer than the scratch holds: far past the stemmer's 64 bytes, so left as it is.
  if (written === undefined || written >= scratch.length - 8) return token;
  const end = porterStem(scratch, written);
  return decoder.decode(scratch.subarray(0, end));
}

/** Whether the stemmer rewrote a letter of an ASCII token without changing its length (y -> i). */
function changedInPlace(token: string, end: number): boolean {
  for (let k = 0; k < end; k++) if (scratch[k] !== token.charCodeAt(k)) return true;
  return false;
}

/**
 * Learns FTS5's rule for each character of `texts` not met before, through one call of
 * `fts5` for all of them.
 */
export function learnCharacters(texts: Iterable<string>, fts5: (text: string) => string[]): void {
  const unknown = new Set<string>();
  for (const text of texts) {
    for (const c of text) {
      const code = c.codePointAt(0)!;
      // A lone surrogate has no rule to learn: text holding one goes to FTS5 whole.
      if (code < 128 || learnt.has(code) || (code >= 0xd800 && code <= 0xdfff)) continue;
      unknown.add(c);
    }
  }
  if (unknown.size === 0) return;
  const characters = [...unknown];
  readRules(characters, fts5(characters.map(probes).join(' ')));
}

/**
 * A tokenizer giving what `fts5` (FTS5's own, a fallback) gives: characters it has not met
 * are learnt through one call of `fts5` for all of them. Text FTS5 might read otherwise than
 * as JavaScript holds it (a lone surrogate), or with a character whose rule the probes left
 * unsure, goes to `fts5` whole.
 */
export function queryTokenizer(fts5: (text: string) => string[]): (text: string) => string[] {
  return (text) => {
    learnCharacters([text], fts5);
    return knownTokens(text) ?? fts5(text);
  };
}

/**
 * FTS5's tokens of text whose characters were learnt (learnCharacters); undefined where FTS5
 * must decide: a character not learnt or whose rule is unsure, or a lone surrogate.
 */
export function knownTokens(text: string): string[] | undefined {
  const tokens: string[] = [];
  let token = '';
  let inToken = false;
  let ascii = true;
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if (code < 128) {
      if (asciiLetter(code)) {
        token += code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : c;
        inToken = true;
        continue;
      }
    } else {
      const rule = learnt.get(code);
      if (!rule?.sure) return undefined;
      if (rule.letter || (inToken && rule.joins)) {
        token += rule.fold;
        if (rule.fold !== '' && ascii) ascii = !/[^\u0000-\u007f]/.test(rule.fold);
        inToken = true;
        continue;
      }
    }
    if (inToken) tokens.push(stemmed(token, ascii));
    token = '';
    inToken = false;
    ascii = true;
  }
  if (inToken) tokens.push(stemmed(token, ascii));
  return tokens;
}
