import { paramByName } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { boxCriteria, problemMessage } from '../../formats/fielded-criteria';
import { mainParam } from './form-params';
import { withValues, type Entries } from '../navigation/query-params';

/**
 * A search's main box read with the fielded syntax: its field terms become the deployment's
 * parameters (shown as chips, so the box keeps only the free words), and a box that cannot be
 * searched as typed — a misspelt field, no words at all — stops the search with a message.
 */
export type SearchBox =
  | { readonly kind: 'as-is' }
  | { readonly kind: 'fielded'; readonly entries: [string, string][] }
  | { readonly kind: 'problem'; readonly message: string };

/** `extensions`: the server takes the extension parameters (config.json `facets`), so `type:` may become `product_type`. */
export function readSearchBox(deployment: Deployment, entries: Entries, extensions: boolean): SearchBox {
  const main = mainParam(deployment);
  const input = main && entries.find(([name]) => name === main.name)?.[1];
  if (!main || input === undefined || input.trim() === '') return { kind: 'as-is' };
  const { words, params, problems } = boxCriteria(deployment, input, { extensions });
  if (problems.length > 0) return { kind: 'problem', message: problems.map((problem) => problemMessage(deployment, problem)).join(' ') };
  if (Object.keys(params).length === 0) return { kind: 'as-is' };
  const replacements: Record<string, string | undefined> = { [main.name]: words || undefined, page: undefined };
  for (const [name, value] of Object.entries(params)) {
    // A text criterion of the form and one of the box narrow together; any other the box sets.
    const existing = entries.find(([entry]) => entry === name)?.[1]?.trim();
    replacements[name] = existing && paramByName(deployment, name)?.kind === 'text' ? `${existing} ${value}` : value;
  }
  return { kind: 'fielded', entries: withValues(entries, replacements) };
}
