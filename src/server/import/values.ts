import type { Link } from '../../deployments/fields';
import { describeValue, InputProblem } from './problem';
import { normalizeTimestamp } from './timestamps';

/**
 * Coercions of one upstream value to the type of the field it lands in. Anything the
 * spec's types cannot express faithfully is refused rather than guessed at, so a bad
 * file fails the import instead of filling the store with quietly wrong records.
 */

const isEmpty = (value: unknown) => value === null || value === undefined;

/**
 * XML parsers turn CRLF into LF; doing the same for JSON makes a record read from either
 * form identical, and the store and its ETags stable across re-imports.
 */
const unixNewlines = (text: string) => text.replace(/\r\n?/g, '\n');

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** Organisation names arrive both as lists and as one string joined with semicolons. */
function splitNames(text: string): string[] {
  return text
    .split(';')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/**
 * A text field. Numbers are accepted because JSON writers differ on ids and volumes.
 * With `joinList`, a list of names becomes one string (organisation fields only, where the
 * spec itself shows both shapes).
 */
export function toText(value: unknown, joinList = false): string {
  if (isEmpty(value)) return '';
  if (typeof value === 'string') return unixNewlines(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (joinList && isStringList(value)) {
    return unixNewlines(
      value
        .map((name) => name.trim())
        .filter((name) => name !== '')
        .join('; '),
    );
  }
  throw new InputProblem(`expected text, got ${describeValue(value)}`);
}

/**
 * A list field. A single string is one item, or, with `splitText` (organisation fields),
 * the semicolon-separated names it joins. An empty string is an empty list: that is how
 * an empty XML container and an absent value look.
 */
export function toList(value: unknown, splitText = false): string[] {
  if (isEmpty(value)) return [];
  if (typeof value === 'string') {
    if (splitText) return splitNames(unixNewlines(value));
    return value.trim() === '' ? [] : [unixNewlines(value)];
  }
  if (isStringList(value)) return value.map(unixNewlines);
  if (Array.isArray(value)) {
    const bad: unknown = value.find((item) => typeof item !== 'string');
    throw new InputProblem(`expected a list of strings, got an item ${describeValue(bad)}`);
  }
  throw new InputProblem(`expected a list of strings, got ${describeValue(value)}`);
}

/** A date field, stored as `YYYY-MM-DDTHH:MM:SSZ`; empty stays empty. */
export function toDate(value: unknown): string {
  if (isEmpty(value)) return '';
  if (typeof value !== 'string') throw new InputProblem(`expected an ISO 8601 date, got ${describeValue(value)}`);
  if (value.trim() === '') return '';
  const timestamp = normalizeTimestamp(value);
  if (timestamp === undefined) throw new InputProblem(`${describeValue(value)} is not an ISO 8601 date or date-time`);
  return timestamp;
}

const numericText = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** A number field; XML and some JSON writers send numbers as text. */
export function toNumber(value: unknown): number | null {
  if (isEmpty(value)) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return null;
    // Number() alone would also take hex, binary and "Infinity".
    const number = numericText.test(text) ? Number(text) : NaN;
    if (Number.isFinite(number)) return number;
  }
  throw new InputProblem(`expected a number, got ${describeValue(value)}`);
}

/** The links field: `{ rel, href }` pairs, other properties dropped. */
export function toLinks(value: unknown): Link[] {
  // An empty string is how an empty `<links/>` container parses.
  if (isEmpty(value) || (typeof value === 'string' && value.trim() === '')) return [];
  if (!Array.isArray(value)) throw new InputProblem(`expected a list of links, got ${describeValue(value)}`);
  return value.map((link: unknown, index) => {
    const { rel, href } = (typeof link === 'object' && link !== null ? link : {}) as { rel?: unknown; href?: unknown };
    if (typeof rel !== 'string' || typeof href !== 'string') {
      throw new InputProblem(`link ${index + 1} needs a rel and an href string, got ${describeValue(link)}`);
    }
    return { rel, href };
  });
}
