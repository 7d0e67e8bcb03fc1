import { extensionFacet, extensionParamOf, type FacetDef } from '../../deployments/facets';
import { displayName, fieldByName, paramByName } from '../../deployments/registry';
import type { Deployment, ParamDef } from '../../deployments/schema';
import { facetFilterParam, readFacetFilterParam } from '../../formats/facet-filters';
import { isPageNumber, kindOf } from '../../formats/param-kinds';
import type { Entries } from '../navigation/query-params';

/**
 * Carrying a search from one deployment to another: keep what the new deployment supports,
 * rename what it only names differently, convert dates, and report the rest.
 */

export interface ConvertedCriteria {
  readonly entries: [string, string][];
  /** Labels of the criteria the target deployment does not support, in URL order. */
  readonly dropped: string[];
}

/**
 * The target's parameter for a source parameter: the same name, or failing that the same
 * label and kind. The second rule follows the table, not a list of names: MM calls
 * `sponsor_org` `sponsor_orgs`, and both carry the label "Sponsoring organisation".
 */
function counterpart(source: ParamDef | undefined, name: string, target: Deployment): ParamDef | undefined {
  const sameName = paramByName(target, name);
  if (sameName && (!source || sameName.kind === source.kind)) return sameName;
  if (!source) return undefined;
  return target.params.find((param) => param.label === source.label && param.kind === source.kind);
}

/** A facet of the target that stands for a facet of the source: the same name, or the same label (MM's plural names). */
function counterpartFacet(source: FacetDef, target: Deployment): FacetDef | undefined {
  return target.facets.find((facet) => facet.name === source.name) ?? target.facets.find((facet) => facet.label === source.label);
}

/** How people know a parameter: the table's label for it, as a parameter, an extension facet or a record field. */
function labelOf(deployment: Deployment, name: string): string {
  const filter = readFacetFilterParam(name);
  const facet = filter ? deployment.facets.find((candidate) => candidate.name === filter.facet) : extensionFacet(deployment, name);
  if (facet) return filter?.mode === 'exclude' ? `${facet.label} (excluded)` : facet.label;
  return paramByName(deployment, name)?.label ?? fieldByName(deployment, name)?.label ?? name;
}

/**
 * What one criterion becomes in the target: a parameter of the table by its counterpart;
 * an extension parameter (`product_type`) or a combinable facet's `facet.NAME`/`exclude.NAME`
 * where the target has that facet and its server takes the extension.
 */
function carried(from: Deployment, to: Deployment, name: string, value: string, extensions: boolean): [string, string] | undefined {
  const filter = readFacetFilterParam(name);
  if (filter) {
    const source = from.facets.find((facet) => facet.name === filter.facet);
    const target = source && extensions ? counterpartFacet(source, to) : undefined;
    return target ? [facetFilterParam(filter.mode, target.name), value] : undefined;
  }
  const sourceFacet = extensionFacet(from, name);
  if (sourceFacet) {
    const target = extensions ? counterpartFacet(sourceFacet, to) : undefined;
    const param = target && extensionParamOf(target);
    return param === undefined ? undefined : [param, value];
  }
  const source = paramByName(from, name);
  const target = counterpart(source, name, to);
  const convertedValue = target && kindOf(target).carry(from, to, value);
  return target && convertedValue !== undefined ? [target.name, convertedValue] : undefined;
}

export interface ConvertOptions {
  /** The target's server takes the local server's extensions (config.json `facets`); true where it is the local server. */
  readonly extensions?: boolean;
}

export function convertCriteria(
  from: Deployment,
  to: Deployment,
  entries: Entries,
  { extensions = true }: ConvertOptions = {},
): ConvertedCriteria {
  const converted: [string, string][] = [];
  const dropped: string[] = [];
  for (const [name, value] of entries) {
    // The page number means nothing in another deployment's results.
    if (isPageNumber(paramByName(from, name)) || value.trim() === '') continue;
    const entry = carried(from, to, name, value, extensions);
    if (entry) {
      converted.push(entry);
    } else {
      const label = labelOf(from, name);
      if (!dropped.includes(label)) dropped.push(label);
    }
  }
  return { entries: converted, dropped };
}

function joinLabels(labels: readonly string[]): string {
  if (labels.length <= 1) return labels.join('');
  return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}

/** "Media type was not supported by Research literature v1 and was removed." */
export function droppedNotice(dropped: readonly string[], to: Deployment): string | undefined {
  if (dropped.length === 0) return undefined;
  const [verb, pronoun] = dropped.length === 1 ? ['was', 'was'] : ['were', 'were'];
  return `${joinLabels(dropped)} ${verb} not supported by ${displayName(to)} and ${pronoun} removed.`;
}
