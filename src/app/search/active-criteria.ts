import { paramByName } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { readFacetFilterParam } from '../../formats/facet-filters';
import { rewriteWords } from '../../formats/query-rewrite';
import { tokenizeQuery } from '../../formats/query-tokens';
import { yearRangeOf } from '../../formats/query-years';
import { mainParam } from './form-params';
import type { Entries } from '../navigation/query-params';

/** The search's criteria as removable chips: what each says, and which parameters removing it drops. */

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
  return deployment.facets.find(({ criterion }) => criterion.kind === 'extension' && criterion.param === name)?.label ?? name;
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

export function activeCriteria(deployment: Deployment, entries: Entries): Chip[] {
  const main = mainParam(deployment);
  const chips: Chip[] = [];
  const done = new Set<string>();
  for (const [name, value] of entries) {
    if (done.has(name) || value.trim() === '' || name === main?.name) continue;
    const filter = readFacetFilterParam(name);
    const facet = filter && deployment.facets.find((candidate) => candidate.name === filter.facet);
    if (filter && facet) {
      const shown = facet.valueLabels?.[value] ?? value.trim();
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
      const what = param.field === 'publication_date' ? 'Published' : 'Entered';
      chips.push({ label: `${what}: ${rangeText(startValue, endValue)}`, params: [start, end] });
      continue;
    }
    done.add(name);
    const shown = param?.kind === 'boolean' ? (value.trim().toLowerCase() === 'true' ? 'Yes' : 'No') : value.trim();
    chips.push({ label: `${labelOf(deployment, name)}: ${shown}`, params: [name] });
  }
  return chips;
}

/** `text` with each bare `word` in it quoted: a word only, never a year. */
export const quoteWord = (text: string, word: string) => rewriteWords(text, (found) => (found === word ? `"${word}"` : undefined));

/**
 * The years the main box names (`2016`, `2010-2015`), which the local server reads as a word
 * or a year of publication (formats/query-years.ts): each a chip saying so, whose button
 * quotes the year, searching for it as a word only.
 */
export function yearChips(deployment: Deployment, entries: Entries): Chip[] {
  const main = mainParam(deployment);
  if (main?.kind !== 'text' || !main.years) return [];
  const value = entries.find(([name]) => name === main.name)?.[1] ?? '';
  const seen = new Set<string>();
  const chips: Chip[] = [];
  for (const token of tokenizeQuery(value)) {
    if (token.kind !== 'word' || token.prefix || token.negated || seen.has(token.text)) continue;
    const years = yearRangeOf(token.text);
    if (!years) continue;
    seen.add(token.text);
    const shown = years.from === years.to ? String(years.from) : `${years.from}–${years.to}`;
    chips.push({
      label: `Published ${shown}, or the word ${token.text}`,
      params: [main.name],
      rewrite: { word: token.text, value: quoteWord(value, token.text) },
    });
  }
  return chips;
}
