import { deployments } from '../deployments/registry';
import type { QueryField } from '../deployments/query-fields';
import type { Deployment } from '../deployments/schema';
import { searchModel } from '../deployments/search-model';
import { editDistance } from './nearest';
import { tokenizeQuery } from './query-tokens';
import { indexWords } from './query-words';

/**
 * The search box's fielded syntax: `plasma author:Fredrickson year:2010-2015 title:"solar cell"`.
 * The parser is total and linear: one pass over the input, each character read a bounded
 * number of times, no regular expression that can backtrack. It splits the box into the free
 * words (still in the query language, the user's own text) and the field terms; what the
 * terms become is the search model's business (fielded-criteria.ts).
 *
 * A colon does not always make a field: `http://…` and `10:30` are words, and so is
 * `ratio:2`, whose name is nothing like a field. A name close to a field (`autor:`) or one
 * that only other deployments have (`doi:` in a catalogue without DOIs) is a problem to
 * report, never a silent search for the words.
 */

export interface FieldTerm {
  readonly field: QueryField;
  /** The name as typed (`Authors`). */
  readonly typed: string;
  readonly value: string;
  /** The value was in quotes: a phrase for a text field, one value for the others. */
  readonly quoted: boolean;
  /** Preceded by `-` or NOT: records matching it are left out. */
  readonly negated: boolean;
}

export type QueryProblem =
  /** Not a field here, but close to one: "Did you mean author:?". */
  | { readonly kind: 'unknown'; readonly typed: string; readonly suggestion: QueryField }
  /** A field of other deployments (or of the server's extension) that this search cannot use. */
  | { readonly kind: 'absent'; readonly typed: string; readonly label: string }
  | { readonly kind: 'empty'; readonly typed: string; readonly field: QueryField }
  /** Inside parentheses or joined by OR: a field always narrows the whole search. */
  | { readonly kind: 'misplaced'; readonly typed: string; readonly field: QueryField; readonly reason: 'group' | 'or' }
  /** A value the field cannot take (`year:soon`), or a second different value of a one-value field. */
  | { readonly kind: 'invalid'; readonly typed: string; readonly field: QueryField; readonly message: string }
  /** The free words (or a text field's value) hold nothing the index keeps as a word: `*`, `NOT`, `🔥`. */
  | { readonly kind: 'no-words'; readonly text: string };

export interface FieldedQuery {
  /** What is left for the main box: the input with the field terms cut out, spaces tidied. */
  readonly words: string;
  readonly terms: readonly FieldTerm[];
  readonly problems: readonly QueryProblem[];
}

/** Field names are short; a longer run before a colon is a word, and the nearest-name search stays bounded. */
const maxNameLength = 40;

const isSpace = (char: string | undefined) =>
  char === ' ' ||
  char === '\t' ||
  char === '\n' ||
  char === '\r' ||
  char === '\f' ||
  char === '\v' ||
  char === '\u00a0' ||
  char === '\u3000';
const isNameStart = (char: string | undefined) => char !== undefined && ((char >= 'a' && char <= 'z') || (char >= 'A' && char <= 'Z'));
const isNameChar = (char: string | undefined) => isNameStart(char) || char === '_' || (char !== undefined && char >= '0' && char <= '9');
/** Where a bare word of the query language ends (query-tokens.ts). */
const endsWord = (char: string | undefined) => char === undefined || isSpace(char) || char === '"' || char === '(' || char === ')';

/** The deployment's field a mistyped name most likely meant: one edit away, two for longer names. */
function nearestField(fields: readonly QueryField[], name: string): QueryField | undefined {
  const allowed = name.length <= 4 ? 1 : 2;
  let best: { field: QueryField; distance: number } | undefined;
  for (const field of fields) {
    for (const candidate of field.names) {
      if (Math.abs(candidate.length - name.length) > allowed) continue;
      const distance = editDistance(name, candidate);
      if (distance <= allowed && (!best || distance < best.distance)) best = { field, distance };
    }
  }
  return best?.field;
}

/** Labels of every deployment's fields by name, to tell "not here" from "not a field". */
let everywhere: Map<string, string> | undefined;
function fieldElsewhere(name: string): string | undefined {
  everywhere ??= new Map(
    deployments.flatMap((deployment) =>
      searchModel(deployment).queryFields.flatMap((field) => field.names.map((each) => [each, field.label] as const)),
    ),
  );
  return everywhere.get(name);
}

/** Whether query-language text holds at least one word the index keeps (negated words count: `-wind` is a search). */
export function hasSearchableWords(text: string): boolean {
  return tokenizeQuery(text).some((token) => (token.kind === 'word' || token.kind === 'phrase') && indexWords(token.text).length > 0);
}

export interface ParseOptions {
  /** Whether the server takes the extension parameters (config.json `facets`); without them `type:` is absent. */
  readonly extensions: boolean;
}

export function parseFieldedQuery(deployment: Deployment, input: string, { extensions }: ParseOptions): FieldedQuery {
  const fields = searchModel(deployment).queryFields.filter((field) => extensions || field.target.kind !== 'extension');
  const byName = new Map(fields.flatMap((field) => field.names.map((name) => [name, field] as const)));
  const terms: FieldTerm[] = [];
  const problems: QueryProblem[] = [];
  /** Spans of the input that are not free words: field terms and the operators tied to them. */
  const cuts: [number, number][] = [];
  let depth = 0;
  /** The last free operator (`AND`, `OR`, `NOT`) read, if nothing came after it yet. */
  let operator: { word: string; start: number; end: number } | undefined;
  /** The last thing read was a field term, so a following OR would join it. */
  let afterField: FieldTerm | undefined;
  let i = 0;
  const n = input.length;
  while (i < n) {
    const char = input[i]!;
    if (isSpace(char)) {
      i++;
      continue;
    }
    if (char === '"') {
      const close = input.indexOf('"', i + 1);
      i = close === -1 ? n : close + 1;
      operator = afterField = undefined;
      continue;
    }
    if (char === '(' || char === ')') {
      depth = char === '(' ? depth + 1 : Math.max(0, depth - 1);
      i++;
      operator = afterField = undefined;
      continue;
    }
    const start = i;
    const dash = char === '-' ? 1 : 0;
    // A name: letters, digits and `_`, starting with a letter, ended by a colon.
    let nameEnd = start + dash;
    if (isNameStart(input[nameEnd])) {
      while (nameEnd < n && nameEnd - start <= maxNameLength && isNameChar(input[nameEnd])) nameEnd++;
    }
    const term =
      nameEnd > start + dash && input[nameEnd] === ':' && !(input[nameEnd + 1] === '/' && input[nameEnd + 2] === '/')
        ? fieldTerm(start, dash === 1, input.slice(start + dash, nameEnd), nameEnd + 1)
        : undefined;
    if (term) {
      i = term.end;
      continue;
    }
    // A free word, as the query language reads it.
    let end = start + 1;
    while (end < n && !endsWord(input[end])) end++;
    const word = input.slice(start, end);
    if (word === 'OR' && afterField) problems.push({ kind: 'misplaced', typed: afterField.typed, field: afterField.field, reason: 'or' });
    operator = word === 'AND' || word === 'OR' || word === 'NOT' ? { word, start, end } : undefined;
    afterField = undefined;
    i = end;
  }

  /** Reads a field term whose value starts at `at`; undefined when the name is no field at all (the text is then words). */
  function fieldTerm(start: number, negatedByDash: boolean, typed: string, at: number): { end: number } | undefined {
    const name = typed.toLowerCase();
    const field = byName.get(name);
    const elsewhere = field ? undefined : fieldElsewhere(name);
    const suggestion = field || elsewhere ? undefined : nearestField(fields, name);
    if (!field && !elsewhere && !suggestion) return undefined;
    // `title: plasma`: spaces after a known field's colon are skipped, once, so the next run is its value.
    if (field) while (at < n && isSpace(input[at])) at++;
    // The value: a quoted phrase, a parenthesised group, or the run of characters up to the next space.
    let end = at;
    let quoted = false;
    let value: string;
    if (input[at] === '"') {
      const close = input.indexOf('"', at + 1);
      end = close === -1 ? n : close + 1;
      value = input.slice(at + 1, close === -1 ? n : close);
      quoted = true;
    } else if (input[at] === '(') {
      let open = 0;
      for (; end < n; end++) {
        if (input[end] === '(') open++;
        else if (input[end] === ')' && --open === 0) break;
        else if (input[end] === '"') {
          const close = input.indexOf('"', end + 1);
          if (close === -1) end = n - 1;
          else end = close;
        }
      }
      end = Math.min(end + 1, n);
      value = input.slice(at, end);
    } else {
      while (end < n && !isSpace(input[end])) end++;
      value = input.slice(at, end);
    }
    // `NOT author:x` and `solar AND author:x`: the operator belongs to the field term.
    let cutFrom = start;
    let negated = negatedByDash;
    if (operator && (operator.word === 'NOT' || operator.word === 'AND')) {
      cutFrom = operator.start;
      negated ||= operator.word === 'NOT';
    }
    cuts.push([cutFrom, end]);
    if (!field) {
      problems.push(suggestion ? { kind: 'unknown', typed, suggestion } : { kind: 'absent', typed, label: elsewhere! });
    } else if (value.trim() === '') {
      problems.push({ kind: 'empty', typed, field });
    } else {
      const found: FieldTerm = { field, typed, value: quoted ? value.trim() : value, quoted, negated };
      if (depth > 0) problems.push({ kind: 'misplaced', typed, field, reason: 'group' });
      else if (operator?.word === 'OR') problems.push({ kind: 'misplaced', typed, field, reason: 'or' });
      terms.push(found);
      afterField = found;
    }
    operator = undefined;
    return { end };
  }

  return { words: cutOut(input, cuts), terms, problems };
}

/** The input without the cut spans, runs of spaces made one. */
function cutOut(input: string, cuts: readonly [number, number][]): string {
  if (cuts.length === 0) return input.trim();
  let words = '';
  let from = 0;
  for (const [start, end] of cuts) {
    words += `${input.slice(from, start)} `;
    from = end;
  }
  words += input.slice(from);
  return words.split(/\s+/).filter(Boolean).join(' ');
}
