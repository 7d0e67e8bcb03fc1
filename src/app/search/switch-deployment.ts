import { displayName, paramByName } from '../../deployments/registry';
import type { Deployment, ParamDef } from '../../deployments/schema';
import { isPageNumber, kindOf } from '../../formats/param-kinds';
import type { Entries } from './query-params';

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

export function convertCriteria(from: Deployment, to: Deployment, entries: Entries): ConvertedCriteria {
  const converted: [string, string][] = [];
  const dropped: string[] = [];
  for (const [name, value] of entries) {
    const source = paramByName(from, name);
    // The page number means nothing in another deployment's results.
    if (isPageNumber(source) || value.trim() === '') continue;
    const target = counterpart(source, name, to);
    const convertedValue = target && kindOf(target).carry(from, to, value);
    if (target && convertedValue !== undefined) {
      converted.push([target.name, convertedValue]);
    } else {
      const label = source?.label ?? name;
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
