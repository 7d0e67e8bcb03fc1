import { displayName } from '../deployments/registry';
import type { QueryField, QueryFieldTarget } from '../deployments/query-fields';
import type { Deployment } from '../deployments/schema';
import { formatDay } from './dates';
import { hasSearchableWords, parseFieldedQuery, type FieldTerm, type ParseOptions, type QueryProblem } from './fielded-query';

/**
 * What the search box's field terms become: the deployment's own parameters, so a fielded
 * query works against any server speaking the spec (`author:Smith` → `author=Smith`,
 * `year:2010-2015` → `publication_date_start=01/01/2010&publication_date_end=12/31/2015`).
 * Each kind of field is an entry of a registry, not a branch of a switch.
 */

export interface BoxCriteria {
  /** The free words for the main parameter ('' when the box held only fields). */
  readonly words: string;
  /** Parameter name → value, in the order the terms were typed. */
  readonly params: Readonly<Record<string, string>>;
  readonly problems: readonly QueryProblem[];
  /** Field terms read as another field of this deployment (`doi:` as Identifier), to be named where they are searched. */
  readonly mapped?: readonly string[];
}

type Compiled = { readonly params: Record<string, string> } | { readonly problem: string };

interface TargetKind<T extends QueryFieldTarget> {
  compile(deployment: Deployment, target: T, terms: readonly FieldTerm[]): Compiled;
}

type TargetOf<K extends QueryFieldTarget['kind']> = Extract<QueryFieldTarget, { kind: K }>;

const shown = (term: FieldTerm) => `${term.typed}:${term.quoted ? `"${term.value}"` : term.value}`;

/** One value for a field that takes one: repeats must agree (in any case), and nothing is left out with NOT. */
function oneValue(terms: readonly FieldTerm[]): { value: string } | { problem: string } {
  const first = terms[0]!;
  const negated = terms.find((term) => term.negated);
  if (negated) return { problem: `${negated.typed}: cannot leave records out; search for the value you want instead.` };
  const other = terms.find((term) => term.value.toLowerCase() !== first.value.toLowerCase());
  if (other) return { problem: `${first.typed}: takes one value; “${first.value}” and “${other.value}” cannot both match.` };
  return { value: first.value };
}

const exactKind: TargetKind<TargetOf<'exact'> | TargetOf<'extension'>> = {
  compile(_deployment, target, terms) {
    const one = oneValue(terms);
    return 'problem' in one ? one : { params: { [target.param]: one.value } };
  },
};

/** `2012`, `2010-2015`, `2010–2015`, `2010..2015`, and open ranges `2010-` and `-2015`. */
function yearRange(value: string): { from?: number; to?: number } | undefined {
  const trimmed = value.trim();
  const single = /^\d{4}$/.test(trimmed) ? Number(trimmed) : undefined;
  const match = single === undefined ? /^(\d{4})?(?:-|–|\.\.)(\d{4})?$/.exec(trimmed) : undefined;
  const from = single ?? (match?.[1] ? Number(match[1]) : undefined);
  const to = single ?? (match?.[2] ? Number(match[2]) : undefined);
  if ((from === undefined && to === undefined) || from === 0 || to === 0 || (from !== undefined && to !== undefined && from > to))
    return undefined;
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

const targetKinds: { readonly [K in QueryFieldTarget['kind']]: TargetKind<TargetOf<K>> } = {
  text: {
    compile(_deployment, target, terms) {
      // Repeats narrow together, as words of one query do: `author:Smith author:Jones`.
      const parts = terms.map((term) => {
        const value = term.quoted ? `"${term.value}"` : term.value;
        return term.negated ? `-${value}` : value;
      });
      const empty = terms.find((term) => !hasSearchableWords(term.value));
      if (empty) return { problem: `${shown(empty)} has no words to search for.` };
      return { params: { [target.param]: parts.join(' ') } };
    },
  },
  exact: exactKind,
  extension: exactKind,
  'date-range': {
    compile(deployment, target, terms) {
      const one = oneValue(terms);
      if ('problem' in one) return one;
      const range = yearRange(one.value);
      const typed = terms[0]!.typed;
      if (!range) return { problem: `${typed}: takes a year or a range of years, for example ${typed}:2012 or ${typed}:2010-2015.` };
      const params: Record<string, string> = {};
      if (range.from !== undefined) params[target.start] = formatDay({ year: range.from, month: 1, day: 1 }, deployment.dateFormat);
      if (range.to !== undefined) params[target.end] = formatDay({ year: range.to, month: 12, day: 31 }, deployment.dateFormat);
      return { params };
    },
  },
};

function compileField(deployment: Deployment, field: QueryField, terms: readonly FieldTerm[]): Compiled {
  const kind = targetKinds[field.target.kind] as TargetKind<QueryFieldTarget>;
  return kind.compile(deployment, field.target, terms);
}

/** Parses the box and turns its field terms into parameters; problems stop the search. */
export function boxCriteria(deployment: Deployment, input: string, options: ParseOptions): BoxCriteria {
  const parsed = parseFieldedQuery(deployment, input, options);
  const problems: QueryProblem[] = [...parsed.problems];
  const params: Record<string, string> = {};
  const byField = new Map<QueryField, FieldTerm[]>();
  for (const term of parsed.terms) byField.set(term.field, [...(byField.get(term.field) ?? []), term]);
  for (const [field, terms] of byField) {
    const compiled = compileField(deployment, field, terms);
    if ('problem' in compiled) problems.push({ kind: 'invalid', typed: terms[0]!.typed, field, message: compiled.problem });
    else Object.assign(params, compiled.params);
  }
  if (parsed.words !== '' && !hasSearchableWords(parsed.words)) problems.push({ kind: 'no-words', text: parsed.words });
  const mapped = parsed.terms
    .filter((term) => term.field.standsFor?.includes(term.typed.toLowerCase()))
    .map((term) => `${term.typed.toLowerCase()}: as ${term.field.label}`);
  return { words: parsed.words, params, problems, ...(mapped.length > 0 && { mapped: [...new Set(mapped)] }) };
}

const messages: { readonly [K in QueryProblem['kind']]: (deployment: Deployment, problem: Extract<QueryProblem, { kind: K }>) => string } =
  {
    unknown: (_deployment, { typed, suggestion }) => `“${typed}:” is not a search field. Did you mean ${suggestion.name}:?`,
    absent: (deployment, { typed, label }) => `${displayName(deployment)} cannot search by ${label} (${typed}:).`,
    empty: (_deployment, { typed }) => `${typed}: needs a value after the colon, for example ${typed}:"two words".`,
    misplaced: (_deployment, { typed, reason }) =>
      reason === 'group'
        ? `${typed}: cannot go inside parentheses: a field narrows the whole search.`
        : `${typed}: cannot be joined with OR: a field narrows the whole search.`,
    invalid: (_deployment, { message }) => message,
    'no-words': (_deployment, { text }) => `“${text}” has no words to search for.`,
  };

/** What to tell the user about a problem, beside the box. */
export function problemMessage(deployment: Deployment, problem: QueryProblem): string {
  return (messages[problem.kind] as (deployment: Deployment, problem: QueryProblem) => string)(deployment, problem);
}
