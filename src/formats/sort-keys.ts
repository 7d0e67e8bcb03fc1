import type { SearchModel, SortKeyRule } from '../deployments/search-model';
import { toPlainLine } from './rich-text';

/** Folded, lower-cased title for sorting: "Éclair" sorts with "eclair", "&Eacute;clair" too. */
export function titleKey(title: unknown): string {
  return toPlainLine(String(title ?? ''))
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/^[^\p{L}\p{N}]+/u, '')
    .toLowerCase();
}

/** Sort keys by rule; an empty date is null, so every store can put it last. */
const sortKeyRules: Record<SortKeyRule, (value: unknown) => string | null> = {
  'iso-date': (value) => (typeof value === 'string' && value ? value : null),
  'folded-text': titleKey,
};

/** The values of a record's sort and date columns, in the order of `model.ordered`. */
export function sortKeysOf(model: SearchModel, record: Readonly<Record<string, unknown>>): (string | null)[] {
  return model.ordered.map(({ field, rule }) => sortKeyRules[rule](record[field]));
}
