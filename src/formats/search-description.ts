import { extensionFacet } from '../deployments/facets';
import { paramByName } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { readFacetFilterParam } from './facet-filters';
import { kindOf } from './facet-kinds/registry';

/**
 * A search's criteria in the words of the deployment table, as the app's filter chips say
 * them ("Product type: Journal Article", "Published: 2010–2019"): the chips themselves, the
 * search history's lines and the Atom feed's title, so a search reads the same everywhere.
 */

type Entries = readonly (readonly [string, string])[];

export interface Chip {
  readonly label: string;
  readonly params: readonly string[];
  /** For a repeatable parameter (`facet.NAME`, `exclude.NAME`): the one value removing the chip drops. */
  readonly value?: string;
  /** A reading of the main box rather than a filter: its button sets `params[0]` to this value instead of removing it. */
  readonly rewrite?: { readonly word: string; readonly value: string };
}

/** Kinds that shape the list rather than filter it: they live beside the result count. */
const presentation = new Set(['sort', 'order', 'integer']);

function labelOf(deployment: Deployment, name: string): string {
  const param = paramByName(deployment, name);
  if (param) return param.label;
  return extensionFacet(deployment, name)?.label ?? name;
}

const yearOf = (value: string) => /(?:^|\D)(\d{4})(?:\D|$)/.exec(value)?.[1];
const isFirstDay = (value: string) => /^(01[/-]01[/-]\d{4}|\d{4}-01-01)$/.test(value.trim());
const isLastDay = (value: string) => /^(12[/-]31[/-]\d{4}|\d{4}-12-31)$/.test(value.trim());

/** "2015", "2010–2019", "from 03/01/2015", "03/01/2015 – 04/30/2016". */
function rangeText(start: string | undefined, end: string | undefined): string {
  if (start && end && isFirstDay(start) && isLastDay(end)) {
    const [from, to] = [yearOf(start), yearOf(end)];
    return from === to ? from! : `${from}–${to}`;
  }
  if (start && end) return `${start} – ${end}`;
  return start ? `from ${start}` : `until ${end}`;
}

/** The filters of a search as chips, the main box (`mainName`) left out. */
export function criteriaChips(deployment: Deployment, entries: Entries, mainName: string | undefined): Chip[] {
  const chips: Chip[] = [];
  const done = new Set<string>();
  for (const [name, value] of entries) {
    if (done.has(name) || value.trim() === '' || name === mainName) continue;
    const filter = readFacetFilterParam(name);
    const facet = filter && deployment.facets.find((candidate) => candidate.name === filter.facet);
    if (filter && facet) {
      const shown = kindOf(facet).chipWords(facet, value);
      chips.push({ label: filter.mode === 'exclude' ? `${facet.label}: not ${shown}` : `${facet.label}: ${shown}`, params: [name], value });
      continue;
    }
    const param = paramByName(deployment, name);
    if (param && presentation.has(param.kind)) continue;
    if (param?.kind === 'date') {
      const start = `${param.field}_start`;
      const end = `${param.field}_end`;
      const startValue = entries.find(([entry]) => entry === start)?.[1];
      const endValue = entries.find(([entry]) => entry === end)?.[1];
      done.add(start).add(end);
      chips.push({ label: `${param.what}: ${rangeText(startValue, endValue)}`, params: [start, end] });
      continue;
    }
    done.add(name);
    const shown = param?.kind === 'boolean' ? (value.trim().toLowerCase() === 'true' ? 'Yes' : 'No') : value.trim();
    chips.push({ label: `${labelOf(deployment, name)}: ${shown}`, params: [name] });
  }
  return chips;
}

/** The deployment's main text parameter (`q`): the box, said as its words rather than as a chip. */
export const mainTextParam = (deployment: Deployment) => deployment.params.find((param) => !param.advanced && param.kind === 'text');

/** One line for a search: the box's words, then each filter's chip ("solar cell · Product type: Journal Article"). */
export function describeSearch(deployment: Deployment, entries: Entries): string {
  const main = mainTextParam(deployment)?.name;
  const words = entries.filter(([name, value]) => name === main && value.trim() !== '').map(([, value]) => value.trim());
  const parts = [...words, ...criteriaChips(deployment, entries, main).map((chip) => chip.label)];
  return parts.length > 0 ? parts.join(' · ') : 'All records';
}
