import { deployments, paramByName } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { boxCriteria, problemMessage } from '../../formats/fielded-criteria';
import { isPageNumber, kindOf } from '../../formats/param-kinds';
import { convertCriteria } from '../navigation/switch-deployment';

export interface CatalogCriteria {
  readonly entries: [string, string][];
  /** Labels of the criteria (or box fields) the catalog does not support: searched without them. */
  readonly dropped: string[];
  /** Why the box cannot be searched in this catalog as typed (a misspelt field, no words): nothing is sent. */
  readonly problem?: string;
  /** Box fields this catalog searches as another of its own (`doi: as Identifier`). */
  readonly mapped?: readonly string[];
}

/**
 * The criteria of an all-catalogs search as one catalog's own: each parameter read as the
 * first deployment that defines it (dates in ISO, which every deployment reads), carried to
 * the catalog by the deployment switcher's rules, and the box's field terms (`author:Curie`)
 * compiled by the catalog's own fields — so a criterion a catalog lacks is named, not sent.
 */
export function criteriaForCatalog(
  target: Deployment,
  entries: readonly (readonly [string, string])[],
  extensions = false,
): CatalogCriteria {
  let converted: [string, string][] = [];
  const dropped: string[] = [];
  const drop = (label: string) => {
    if (!dropped.includes(label)) dropped.push(label);
  };
  for (const entry of entries) {
    const [name] = entry;
    const source = paramByName(target, name) ? target : (deployments.find((deployment) => paramByName(deployment, name)) ?? target);
    if (isPageNumber(paramByName(source, name)) || name === 'rows') continue;
    const one = convertCriteria(source, target, [entry], { extensions });
    converted.push(...one.entries);
    one.dropped.forEach(drop);
  }

  const box = converted.find(([name]) => name === 'q')?.[1];
  if (box === undefined) {
    return converted.length === 0 && entries.length > 0
      ? { entries: converted, dropped, problem: 'This catalog has none of the search’s criteria.' }
      : { entries: converted, dropped };
  }
  const { words, params, problems, mapped } = boxCriteria(target, box, { extensions });
  for (const problem of problems) if (problem.kind === 'absent') drop(problem.label);
  const blocking = problems.filter((problem) => problem.kind !== 'absent');
  if (blocking.length > 0)
    return { entries: converted, dropped, problem: blocking.map((problem) => problemMessage(target, problem)).join(' ') };
  if (Object.keys(params).length === 0 && problems.length === 0) return { entries: converted, dropped };
  // The box keeps its free words; each field term joins the criteria (a text criterion already there narrows with it).
  converted = converted.flatMap(([name, value]): [string, string][] => {
    if (name === 'q') return words ? [['q', words]] : [];
    const added = params[name];
    if (added === undefined) return [[name, value]];
    return [[name, paramByName(target, name)?.kind === 'text' ? `${value} ${added}` : added]];
  });
  for (const [name, value] of Object.entries(params)) if (!converted.some(([entry]) => entry === name)) converted.push([name, value]);
  // Searching with nothing left would list the whole catalog as if it matched.
  if (converted.length === 0) return { entries: converted, dropped, problem: 'This catalog has none of the search’s criteria.' };
  return { entries: converted, dropped, ...(mapped && { mapped }) };
}

/**
 * One catalog's criteria as an all-catalogs search: the page number left out, dates in ISO
 * (which every deployment reads), everything else as it is (criteriaForCatalog names what
 * another catalog lacks).
 */
export function allCatalogsCriteria(from: Deployment, entries: readonly (readonly [string, string])[]): [string, string][] {
  return entries.flatMap(([name, value]): [string, string][] => {
    const param = paramByName(from, name);
    if (isPageNumber(param) || name === 'rows' || value.trim() === '') return [];
    return [[name, param?.kind === 'date' ? kindOf(param).toControl(from, value) || value : value]];
  });
}
