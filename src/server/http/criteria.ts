import { extensionFacet, type FacetDef } from '../../deployments/facets';
import { deployments, sortFields } from '../../deployments/registry';
import type { Deployment, GroupBy, ParamDef } from '../../deployments/schema';
import { facetByName, searchModel, sortableField } from '../../deployments/search-model';
import { facetFilterParam, readFacetFilterParam, type FacetFilterMode } from '../../formats/facet-filters';
import { facetValueParams } from '../../formats/facet-params';
import { compareDays, formatDay, parseDateParam, startOfDay, startOfNextDay, type Day } from '../../formats/dates';
import { parseBooleanValue, parseOrderValue, parseSortValue, parseWholeNumberValue } from '../../formats/param-values';
import { costLimits, queryCost } from '../query/cost';
import { leafCount, parseQuery } from '../query/parse';
import { nameQuery } from '../../formats/authors';
import { normalizeKeyValue } from '../../formats/keys';
import type { Criteria, FacetSelection, Selector, SortField, SortOrder } from '../store/types';
import { nearest } from '../../formats/nearest';
import type { QueryPair } from './query-string';

/**
 * Turns a list request's query parameters into store criteria, reading every rule from
 * the deployment table. Anything it cannot accept is a BadRequest naming the parameter.
 */

export class BadRequest extends Error {
  constructor(
    message: string,
    readonly parameter?: string,
  ) {
    super(message);
  }
}

export interface ListRequest {
  readonly criteria: Criteria;
  readonly page: number;
  readonly rows: number;
  /** `group=work` (an extension of `{base}/records`): the page lists works with their versions (http/work-groups.ts). */
  readonly group?: GroupBy;
}

export const limits = { textLength: 1000, exactLength: 300, queryTerms: 64, selectedValues: 50, selectedLength: 500, idList: 100 } as const;

export interface ListRequestOptions {
  /** The upstream profile: `repo_id` (`osti_id`) may list identifiers as `A OR B OR C`, as MPCite sends them. */
  readonly idLists?: boolean;
  /** `{base}/records`: the deployment's extension parameters (`group`) are read too. */
  readonly extensions?: boolean;
}

function deploymentsWith(name: string): Deployment[] {
  return deployments.filter((deployment) => deployment.params.some((param) => param.name === name));
}

const listNames = (names: readonly string[]) =>
  names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

function unknownParameter(deployment: Deployment, name: string): BadRequest {
  if (deployment.extensions.some((param) => param.name === name))
    return new BadRequest(`${name} is a parameter of ${deployment.basePath}/records only.`, name);
  const elsewhere = deploymentsWith(name);
  if (elsewhere.length > 0) {
    const owners = listNames(elsewhere.map((other) => `the ${other.name.toLowerCase()} ${other.version}`));
    return new BadRequest(
      `${name} is a parameter of ${owners} only, not of the ${deployment.name.toLowerCase()} ${deployment.version}.`,
      name,
    );
  }
  const suggestion = nearest(
    name,
    deployment.params.map((param) => param.name),
  );
  const hint = suggestion
    ? ` Did you mean '${suggestion}'?`
    : ` Valid parameters: ${deployment.params.map((param) => param.name).join(', ')}.`;
  return new BadRequest(`Unknown parameter '${name.slice(0, 100)}'.${hint}`, name);
}

function tooExpensive(name: string): BadRequest {
  const { perRequest, term, prefix, shortPrefix, shortStem } = costLimits;
  return new BadRequest(
    `The search is too expensive to run: its text parameters together may cost at most ${perRequest} units ` +
      `(a word or phrase word ${term}, a prefix ${prefix}, a prefix of fewer than ${shortStem} letters ${shortPrefix}); ${name} goes over. ` +
      'Use fewer prefixes (word*) or alternatives (OR).',
    name,
  );
}

/**
 * A parameter of the local server's own (`product_type`, which a facet selects by and no
 * spec deployment has): an exact match on the facet's key (docs/extensions.md).
 */
function extensionParam(deployment: Deployment, name: string): ParamDef | undefined {
  const facet = extensionFacet(deployment, name);
  if (!facet?.key) return undefined;
  return {
    name,
    label: facet.label,
    help: facet.fold
      ? `One ${facet.label.toLowerCase()} in any of its spellings (an extension of this server).`
      : `Exact ${facet.label.toLowerCase()} (an extension of this server).`,
    kind: 'exact',
    key: facet.key,
    // Values are stored folded (formats/value-folding.ts), so every spelling finds them all.
    ...(facet.fold ? { normalize: facet.fold } : {}),
    advanced: true,
  };
}

function parseWholeNumber(param: Extract<ParamDef, { kind: 'integer' }>, value: string): number {
  const number = parseWholeNumberValue(value, param.max);
  if (number === undefined) {
    throw new BadRequest(
      `${param.name} must be a whole number from 1 to ${param.max.toLocaleString('en-US')}; got '${value.slice(0, 40)}'.`,
      param.name,
    );
  }
  return number;
}

function parseDate(deployment: Deployment, param: ParamDef, value: string): Day {
  const day = parseDateParam(value, deployment.dateFormat);
  if (!day) {
    throw new BadRequest(
      `${param.name} must be a real date written as ${deployment.dateFormat} (or YYYY-MM-DD); got '${value.slice(0, 40)}'.`,
      param.name,
    );
  }
  return day;
}

interface SortChoice {
  sort?: SortField;
  order?: SortOrder;
}

function parseOrder(value: string, parameter: string): SortOrder {
  const order = parseOrderValue(value);
  if (!order) throw new BadRequest(`${parameter} must be asc or desc; got '${value.slice(0, 40)}'.`, parameter);
  return order;
}

function parseSort(deployment: Deployment, value: string): SortChoice {
  const parsed = parseSortValue(deployment, value);
  if (!parsed) {
    throw new BadRequest(
      `sort must be one of ${sortFields(deployment).join(', ')} (optionally followed by asc or desc); got '${value.slice(0, 60)}'.`,
      'sort',
    );
  }
  return { sort: parsed.field, ...(parsed.order ? { order: parsed.order } : {}) };
}

/** What the parameters of one request add up to, before the cross-parameter checks. */
interface RequestParts {
  readonly deployment: Deployment;
  readonly text: Criteria['text'][number][];
  readonly exact: Criteria['exact'][number][];
  readonly bounds: Map<string, { start?: Day; end?: Day }>;
  repoIds?: string[];
  readonly options: ListRequestOptions;
  page: number;
  rows: number;
  sortChoice: SortChoice;
  order?: SortOrder;
  group?: GroupBy;
  /** Estimated cost of the text parameters so far (query/cost.ts). */
  units: number;
}

function checkLength(name: string, value: string, limit: number): void {
  if (value.length > limit) throw new BadRequest(`${name} is too long: at most ${limit} characters.`, name);
}

/** How each parameter kind of the deployment table adds a (non-empty) value to the request. */
const builders: {
  readonly [K in ParamDef['kind']]: (request: RequestParts, param: Extract<ParamDef, { kind: K }>, value: string) => void;
} = {
  text(request, param, value) {
    checkLength(param.name, value, limits.textLength);
    const query = parseQuery((param.personNames && nameQuery(value)) || value, { years: param.years === true });
    if (leafCount(query) > limits.queryTerms) {
      throw new BadRequest(`${param.name} has too many words and phrases: at most ${limits.queryTerms}.`, param.name);
    }
    const cost = queryCost(query);
    if (cost.longestPhrase > costLimits.phraseWords) {
      throw new BadRequest(
        `${param.name} has a phrase of ${cost.longestPhrase} words; a phrase may have at most ${costLimits.phraseWords}.`,
        param.name,
      );
    }
    request.units += cost.units;
    if (request.units > costLimits.perRequest) throw tooExpensive(param.name);
    if (query) request.text.push({ columns: param.columns, query });
  },
  exact(request, param, value) {
    checkLength(param.name, value, limits.exactLength);
    const normalized = normalizeKeyValue(value, param.normalize);
    if (normalized) request.exact.push({ key: param.key, value: normalized });
  },
  boolean(request, param, value) {
    const flag = parseBooleanValue(value);
    if (flag === undefined) throw new BadRequest(`${param.name} must be true or false; got '${value.slice(0, 40)}'.`, param.name);
    request.exact.push({ key: param.key, value: String(flag) });
  },
  repo_id(request, param, value) {
    if (!request.options.idLists) {
      checkLength(param.name, value, limits.exactLength);
      request.repoIds = [value];
      return;
    }
    const ids = splitIdList(value)
      .map((id) => id.trim())
      .filter(Boolean);
    if (ids.length > limits.idList)
      throw new BadRequest(`${param.name} lists ${ids.length} identifiers; at most ${limits.idList}.`, param.name);
    for (const id of ids) checkLength(param.name, id, limits.exactLength);
    request.repoIds = ids;
  },
  date(request, param, value) {
    const bound = request.bounds.get(param.field) ?? {};
    bound[param.bound] = parseDate(request.deployment, param, value);
    request.bounds.set(param.field, bound);
  },
  sort(request, _param, value) {
    request.sortChoice = parseSort(request.deployment, value);
  },
  order(request, param, value) {
    request.order = parseOrder(value, param.name);
  },
  group(request, param, value) {
    const choice = param.values.find((candidate) => candidate === value);
    if (!choice) throw new BadRequest(`${param.name} must be ${param.values.join(' or ')}; got '${value.slice(0, 40)}'.`, param.name);
    request.group = choice;
  },
  integer(request, param, value) {
    if (param.paging === 'rows') request.rows = parseWholeNumber(param, value);
    // The upstream answers page=0 with page 1, and real clients send it (docs/design.md).
    else request.page = /^0+$/.test(value.trim()) ? 1 : parseWholeNumber(param, value);
  },
};

function emptyRequest(deployment: Deployment, options: ListRequestOptions = {}): RequestParts {
  const model = searchModel(deployment);
  return {
    deployment,
    options,
    text: [],
    exact: [],
    bounds: new Map(),
    page: model.defaults.page,
    rows: model.defaults.rows,
    sortChoice: {},
    units: 0,
  };
}

/** Which side of a facet's selection a `facet.NAME` (select) or `exclude.NAME` value goes to. */
const selectionSides = { select: 'anyOf', exclude: 'noneOf' } as const;

/** What one facet value selects: its parameters (the facet kind's), parsed as the request's own are. */
function selectorOf(deployment: Deployment, facet: FacetDef, value: string, name: string): Selector {
  const params = facetValueParams(deployment, facet, value);
  const parts = emptyRequest(deployment);
  for (const [param, paramValue] of Object.entries(params ?? {})) {
    const def = deployment.params.find((candidate) => candidate.name === param) ?? extensionParam(deployment, param);
    if (def) builders[def.kind](parts, def as never, paramValue);
  }
  const selector = { text: parts.text, exact: parts.exact, dates: datesOf(deployment, parts.bounds) };
  if (selector.text.length + selector.exact.length + selector.dates.length === 0) {
    throw new BadRequest(
      `${name} cannot select '${value.slice(0, 60)}': it is not a value of the ${facet.label.toLowerCase()} facet.`,
      name,
    );
  }
  return selector;
}

function addSelection(
  deployment: Deployment,
  selections: Map<string, FacetSelection>,
  name: string,
  facetName: string,
  mode: FacetFilterMode,
  value: string,
) {
  const facet = facetByName(deployment, facetName);
  if (!facet) {
    const suggestion = nearest(
      facetName,
      searchModel(deployment).index.facets.map((candidate) => candidate.name),
    );
    const hint = suggestion ? ` Did you mean '${facetFilterParam(mode, suggestion)}'?` : '';
    throw new BadRequest(`Unknown facet '${facetName.slice(0, 60)}' in ${name.slice(0, 80)}.${hint}`, name);
  }
  checkLength(name, value, limits.selectedLength);
  const selection = selections.get(facet.name) ?? { facet: facet.name, anyOf: [], noneOf: [] };
  const given = [...selections.values()].reduce((sum, { anyOf, noneOf }) => sum + anyOf.length + noneOf.length, 0);
  if (given >= limits.selectedValues) {
    throw new BadRequest(
      `A search may select or exclude at most ${limits.selectedValues} facet values (facet.NAME and exclude.NAME together).`,
      name,
    );
  }
  const side = selectionSides[mode];
  selections.set(facet.name, {
    ...selection,
    [side]: [...selection[side], { value, selector: selectorOf(deployment, facet, value, name) }],
  });
}

export function parseListRequest(deployment: Deployment, pairs: readonly QueryPair[], options: ListRequestOptions = {}): ListRequest {
  const seen = new Set<string>();
  const model = searchModel(deployment);
  const request = emptyRequest(deployment, options);
  const selections = new Map<string, FacetSelection>();

  for (const [name, rawValue] of pairs) {
    const selection = readFacetFilterParam(name);
    if (selection) {
      const value = rawValue.trim();
      if (value !== '') addSelection(deployment, selections, name, selection.facet, selection.mode, value);
      continue;
    }
    const param =
      deployment.params.find((candidate) => candidate.name === name) ??
      extensionParam(deployment, name) ??
      (options.extensions ? deployment.extensions.find((candidate) => candidate.name === name) : undefined);
    if (!param) throw unknownParameter(deployment, name);
    if (seen.has(name)) throw new BadRequest(`${name} is given more than once; give each parameter at most once.`, name);
    seen.add(name);
    const value = rawValue.trim();
    if (value === '') continue; // empty values count as absent

    builders[param.kind](request, param as never, value);
  }

  const { text, exact, repoIds, page, rows, sortChoice, order, group } = request;
  const dates = datesOf(deployment, request.bounds);

  if (sortChoice.order && order && sortChoice.order !== order) {
    throw new BadRequest(`sort says ${sortChoice.order} but order says ${order}; give the direction once.`, 'order');
  }
  const sort = sortChoice.sort ?? (text.length > 0 ? 'relevance' : model.defaults.browseSort);
  const finalOrder = sortChoice.order ?? order ?? sortableField(deployment, sort)?.defaultOrder ?? 'desc';
  const offset = (page - 1) * rows;
  if (!Number.isSafeInteger(offset)) throw new BadRequest('page is too large.', 'page');

  return {
    page,
    rows,
    ...(group ? { group } : {}),
    criteria: {
      text,
      exact,
      ...(repoIds !== undefined ? { repoIds } : {}),
      dates,
      ...(selections.size > 0 ? { selections: [...selections.values()] } : {}),
      sort,
      order: finalOrder,
      offset,
      limit: rows,
    },
  };
}

/** Date bounds as store criteria, refusing a start after its end. */
function datesOf(deployment: Deployment, bounds: RequestParts['bounds']): Criteria['dates'][number][] {
  const dates: Criteria['dates'][number][] = [];
  for (const [field, { start, end }] of bounds) {
    if (start && end && compareDays(start, end) > 0) {
      throw new BadRequest(
        `${field}_start (${formatDay(start, deployment.dateFormat)}) is after ${field}_end (${formatDay(end, deployment.dateFormat)}).`,
        `${field}_start`,
      );
    }
    // The day after 12/31/9999 has a five-digit year, which sorts before every stored
    // timestamp; such an end bound limits nothing.
    const to = end ? startOfNextDay(end) : undefined;
    dates.push({ field, ...(start ? { from: startOfDay(start) } : {}), ...(to && /^\d{4}-/.test(to) ? { to } : {}) });
  }
  return dates;
}

/**
 * `A OR B OR C` → A, B, C: the word OR with white space on both sides separates. One pass
 * over words and the white space between them; the pattern /\s+OR\s+/ would rescan a run of
 * white space from each of its characters (quadratic in a URL of spaces).
 */
export function splitIdList(value: string): string[] {
  const pieces = value.split(/(\s+)/);
  const ids: string[] = [];
  let current = '';
  // Words are at even indexes, the white space between them at odd ones.
  for (let i = 0; i < pieces.length; i += 2) {
    const word = pieces[i]!;
    if (word === 'OR' && i > 0 && i < pieces.length - 1) {
      ids.push(current);
      current = '';
    } else current += (current ? pieces[i - 1]! : '') + word;
  }
  ids.push(current);
  return ids;
}
