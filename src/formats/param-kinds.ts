import { sortFields } from '../deployments/registry';
import type { Deployment, ParamDef, ParamKind } from '../deployments/schema';
import { formatDay, parseDateParam } from './dates';
import { parseBooleanValue, parseOrderValue, parseSortValue, parseWholeNumberValue } from './param-values';

/**
 * The registry of parameter kinds: one object per kind of the deployment table, holding
 * what the browser and the server both need to know about a value of that kind. The
 * server's criteria building (http/criteria.ts) and the app's controls (search/ParamControl.tsx)
 * keep their own tables keyed by the same kinds, so no feature file switches on a kind.
 */

type ParamOfKind<K extends ParamKind> = Extract<ParamDef, { kind: K }>;

export interface ParamKindRules<P extends ParamDef> {
  /** Sorting and page size shape the result list rather than filter it. */
  readonly shapesResults: boolean;
  /** What is wrong with a (non-empty) value, worded for the form; undefined when it is acceptable. */
  problem(deployment: Deployment, param: P, value: string): string | undefined;
  /** The form control's value for a URL value ('' where the control cannot show it). */
  toControl(deployment: Deployment, value: string): string;
  /** The URL value for a form control's value. */
  fromControl(deployment: Deployment, value: string): string;
  /** The value carried to another deployment's search, or undefined when it has no meaning there. */
  carry(from: Deployment, to: Deployment, value: string): string | undefined;
}

const asIs = (_deployment: Deployment, value: string) => value;
const carryAsIs = (_from: Deployment, _to: Deployment, value: string) => value;
const anyValue = () => undefined;

const freeText = {
  shapesResults: false,
  problem: anyValue,
  toControl: asIs,
  fromControl: asIs,
  carry: carryAsIs,
} as const;

/** Date inputs speak ISO `YYYY-MM-DD`; the URL and the API the deployment's own format. */
const dateKind: ParamKindRules<ParamOfKind<'date'>> = {
  shapesResults: false,
  problem: (deployment, param, value) =>
    parseDateParam(value.trim(), deployment.dateFormat) === undefined
      ? `${param.label}: enter a real date as ${deployment.dateFormat}.`
      : undefined,
  toControl(deployment, value) {
    const day = parseDateParam(value.trim(), deployment.dateFormat);
    return day ? formatDay(day, 'YYYY-MM-DD') : '';
  },
  fromControl(deployment, value) {
    const day = parseDateParam(value.trim(), deployment.dateFormat);
    return day ? formatDay(day, deployment.dateFormat) : value.trim();
  },
  carry(from, to, value) {
    const day = parseDateParam(value.trim(), from.dateFormat);
    // An unreadable date is passed on unchanged; the server will say what is wrong with it.
    return day ? formatDay(day, to.dateFormat) : value;
  },
};

export const paramKinds: { readonly [K in ParamKind]: ParamKindRules<ParamOfKind<K>> } = {
  text: freeText,
  exact: freeText,
  repo_id: freeText,
  date: dateKind,
  boolean: {
    ...freeText,
    problem: (_deployment, param, value) => (parseBooleanValue(value) === undefined ? `${param.label}: choose Yes or No.` : undefined),
  },
  sort: {
    ...freeText,
    shapesResults: true,
    problem: (deployment, param, value) =>
      parseSortValue(deployment, value) === undefined ? `${param.label}: choose one of ${sortFields(deployment).join(', ')}.` : undefined,
    carry(_from, to, value) {
      const [field] = value.trim().split(/\s+/);
      return field && sortFields(to).includes(field) ? value : undefined;
    },
  },
  order: {
    ...freeText,
    shapesResults: true,
    problem: (_deployment, param, value) => (parseOrderValue(value) === undefined ? `${param.label}: choose asc or desc.` : undefined),
  },
  group: {
    ...freeText,
    shapesResults: true,
    problem: (_deployment, param, value) =>
      (param.values as readonly string[]).includes(value.trim()) ? undefined : `${param.label}: choose ${param.values.join(' or ')}.`,
  },
  integer: {
    ...freeText,
    shapesResults: true,
    problem: (_deployment, param, value) =>
      parseWholeNumberValue(value, param.max) === undefined
        ? `${param.label}: enter a whole number from 1 to ${param.max.toLocaleString('en')}.`
        : undefined,
  },
};

/** The rules of a parameter's kind. */
export function kindOf<P extends ParamDef>(param: P): ParamKindRules<P> {
  return paramKinds[param.kind] as unknown as ParamKindRules<P>;
}

/** The page number: it means nothing to a new search or to another deployment's results. */
export const isPageNumber = (param: ParamDef | undefined) => param?.kind === 'integer' && param.paging === 'page';
