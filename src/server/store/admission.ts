import type { QueryNode } from '../query/ast';
import { queryCost } from '../query/cost';
import type { PageRendering } from '../render/page-body';
import type { EngineOp } from './engine-calls';
import type { Criteria, FacetRequest } from './types';

/**
 * What the worker pool (pooled-store.ts) needs to know about a request before it runs: its
 * lane, and its price. A record lookup is what `GET /records/{id}` needs, one row by its key
 * (the record, its full text, whether it is generated); everything else is a search, whatever
 * its parameters. A search is priced by what requests of its kind took when they ran, not by
 * a guess from its syntax: the kind is the request's shape (operation, deployment, the query's
 * tree without its words, the filters, sort and facets asked for, the size of a page read),
 * so `/facets` without a query, or a phrase beside a `repo_id`, is as dear as it proved to be.
 */

/** The store's operations (engine-calls.ts), each admitted by its own rule below. */
export type Op = EngineOp;

/** Pages read by id up to this many records are lookups; a larger page is priced as a search. */
const lookupPageSize = 100;

/** The query tree without its words: the same shape costs about the same. */
function shapeOf(node: QueryNode): string {
  switch (node.type) {
    case 'term':
      return node.prefix ? `w*${Math.min(node.text.length, 3)}` : 'w';
    case 'phrase':
      return `"${Math.min(node.text.split(/\s+/).length, 8)}"`;
    case 'not':
      return `not(${shapeOf(node.child)})`;
    default:
      return `${node.type}(${node.children.map(shapeOf).join(',')})`;
  }
}

/** Page sizes, and numbers of facet values chosen, priced alike: within a power of two. */
const bucketOf = (size: number) => 2 ** Math.ceil(Math.log2(Math.max(1, size)));

function criteriaShape(criteria: Criteria): string {
  const text = criteria.text.map(({ columns, query }) => `${columns.join('+')}:${shapeOf(query)}`).join(' ');
  const exact = criteria.exact.map(({ key }) => key).join(',');
  const dates = criteria.dates.map(({ field }) => field).join(',');
  // Fifty exclusions are not the one-word search beside them: each value is a search of its own.
  const chosen = (criteria.selections ?? []).map(
    ({ facet, anyOf, noneOf }) => `${facet}+${bucketOf(anyOf.length)}-${bucketOf(noneOf.length)}`,
  );
  return `${text}|${exact}|${dates}|${chosen.join(',')}|${criteria.sort}|${criteria.repoIds === undefined ? '' : 'id'}`;
}

/** Facet values chosen (selected or excluded): each is about a word's work. */
const chosenValues = (criteria: Criteria) =>
  (criteria.selections ?? []).reduce((sum, { anyOf, noneOf }) => sum + anyOf.length + noneOf.length, 0);

export interface Admission {
  /** A record by its key: bounded work, taken by any free worker first. */
  readonly lookup: boolean;
  /** Requests of the same kind share one price. */
  readonly kind: string;
  /** The price until requests of this kind have been measured, in milliseconds. */
  readonly estimateMs: number;
  /**
   * Bounded work that may nonetheless outlast the search budget once, building what it reads:
   * it runs without the budget, since a worker replaced for it would build it again, and again.
   */
  readonly unbudgeted?: true;
  /**
   * A page of more than `lookupPageSize` records: dear whatever its kind's last runs took,
   * since one kind holds pages of every size (a rare word's feed is a few entries, a common
   * word's a thousand), so a cheap run says nothing of the next.
   */
  readonly bulk?: true;
}

const bulkOf = (records: number) => (records > lookupPageSize ? { bulk: true as const } : {});

export function admissionOf(op: Op, args: readonly unknown[]): Admission {
  const key = args[0] as string;
  switch (op) {
    case 'get':
    case 'fulltext':
    case 'count':
      return { lookup: true, kind: `${op} ${key}`, estimateMs: 1 };
    case 'complete':
      // A few binary searches over values sorted in memory once: bounded, like a lookup.
      return { lookup: true, kind: `${op} ${key}`, estimateMs: 2 };
    case 'suggest':
      // Words near a few words, in memory, once the vocabulary is built (the first builds it).
      return { lookup: false, kind: `${op} ${key}`, estimateMs: 20, unbudgeted: true };
    case 'fetch':
    case 'render': {
      const size = (args[1] as Int32Array).length;
      // A page of works parses and groups every record of its window: a search's work, not a lookup's.
      const works = op === 'render' && (args[2] as PageRendering).works !== undefined;
      return {
        lookup: size <= lookupPageSize && !works,
        kind: `${op} ${key} ${bucketOf(size)}${works ? ' works' : ''}`,
        estimateMs: 1 + size / 20,
        ...bulkOf(size),
      };
    }
    case 'rankPage':
    case 'rankRender':
    case 'facets': {
      const criteria = args[1] as Criteria;
      // Records by their ids alone (`repo_id`): a lookup, unless words or dates make it a search.
      const lookup = op !== 'facets' && criteria.repoIds !== undefined && criteria.text.length === 0 && criteria.dates.length === 0;
      const units = criteria.text.reduce((sum, { query }) => sum + queryCost(query).units, 0) + chosenValues(criteria);
      if (op === 'rankPage')
        return { lookup, kind: `rankPage ${key} ${criteriaShape(criteria)}`, estimateMs: 1 + units, ...bulkOf(criteria.limit) };
      if (op === 'rankRender') {
        // The page is rendered too: its size and format are part of its price.
        // A page of works (group=work) parses and groups its window's records too.
        const { format, works } = args[5] as PageRendering;
        const page = `${format}${works ? ' works' : ''} ${bucketOf(criteria.limit)}`;
        return {
          lookup,
          kind: `rankRender ${key} ${criteriaShape(criteria)} ${page}`,
          estimateMs: 1 + units + criteria.limit / 20,
          ...bulkOf(criteria.limit),
        };
      }
      const facets = (args[2] as readonly FacetRequest[]).map(({ name }) => name);
      // Counting facets reads every matching record's values: dearer than ranking alone.
      return {
        lookup: false,
        kind: `facets ${key} ${criteriaShape(criteria)} ${facets.join(',')}`,
        estimateMs: 20 * (1 + facets.length) + units,
      };
    }
  }
}

/**
 * A search whose kind costs this much or more is dear: dear searches hold all search workers
 * but one (pooled-store.ts), so a normal user's search always finds one free soon.
 */
export const dearMs = 50;

interface Measured {
  /** The last runs' times, newest last (at most `remembered`). */
  readonly runs: number[];
  samples: number;
}

/**
 * A kind's price is the fastest of its last few runs: a kind is believed cheap as soon as
 * one runs fast, and dear only while every recent run says so, so one slow run in a busy
 * moment (the machine's other work, a flood) does not make an ordinary search dear and
 * keep it from the worker left for cheap ones (pooled-store.ts).
 */
const remembered = 3;

/** What each kind of request took to run (milliseconds). */
export class CostBook {
  private readonly measured = new Map<string, Measured>();
  /** Kinds remembered at most; the least recently measured go first. */
  constructor(private readonly capacity = 4096) {}

  priceOf({ kind, estimateMs }: Admission): number {
    const runs = this.measured.get(kind)?.runs;
    return runs ? Math.min(...runs) : estimateMs;
  }

  /**
   * Dear by its price; but one slow run of a kind estimated cheap (a cold cache, a busy
   * moment) proves nothing yet, so it is not held back until a second run says the same.
   */
  isDear(admission: Admission): boolean {
    if (admission.bulk) return true;
    const entry = this.measured.get(admission.kind);
    if (entry && entry.samples < 2 && admission.estimateMs < dearMs) return false;
    return this.priceOf(admission) >= dearMs;
  }

  charge(kind: string, ms: number): void {
    const entry = this.measured.get(kind) ?? { runs: [], samples: 0 };
    this.measured.delete(kind);
    entry.runs.push(ms);
    if (entry.runs.length > remembered) entry.runs.shift();
    entry.samples++;
    this.measured.set(kind, entry);
    if (this.measured.size > this.capacity) this.measured.delete(this.measured.keys().next().value!);
  }
}
