import { deployments, paramByName } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { isPageNumber } from '../../formats/param-kinds';
import { convertCriteria, type ConvertedCriteria } from '../search/switch-deployment';

/**
 * The criteria of an all-catalogs search as one catalog's own: each parameter read as the
 * first deployment that defines it (dates in ISO, which every deployment reads), then carried
 * to the catalog by the deployment switcher's rules, so a criterion a catalog lacks is named
 * rather than sent (and refused) or silently lost.
 */
export function criteriaForCatalog(target: Deployment, entries: readonly (readonly [string, string])[]): ConvertedCriteria {
  const converted: [string, string][] = [];
  const dropped: string[] = [];
  for (const entry of entries) {
    const [name] = entry;
    const source = paramByName(target, name) ? target : (deployments.find((deployment) => paramByName(deployment, name)) ?? target);
    if (isPageNumber(paramByName(source, name)) || name === 'rows') continue;
    const one = convertCriteria(source, target, [entry]);
    converted.push(...one.entries);
    for (const label of one.dropped) if (!dropped.includes(label)) dropped.push(label);
  }
  return { entries: converted, dropped };
}
