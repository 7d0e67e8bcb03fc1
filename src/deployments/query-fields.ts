import type { Deployment, ParamKind } from './schema';

/**
 * The fields of the search box's fielded syntax (`author:Smith`, `year:2010-2015`), compiled
 * from the deployment table: every text and exact-match parameter by its name, its label and
 * its aliases; every date field bounded on both sides as a range; every facet's extension
 * parameter. A new parameter in the table is a new field here, with no change elsewhere.
 */

export type QueryFieldTarget =
  /** A text parameter: the value is in the query language (`title:"solar cell"` → `title="solar cell"`). */
  | { readonly kind: 'text'; readonly param: string }
  /** An exact-match parameter (or the record ID): the value as typed, quotes removed. */
  | { readonly kind: 'exact'; readonly param: string }
  /** A year or a range of years as the two bounds of a date field, in the deployment's date format. */
  | { readonly kind: 'date-range'; readonly start: string; readonly end: string }
  /** A parameter only the local server's extension takes (`product_type`); sent only where the config says the server has it. */
  | { readonly kind: 'extension'; readonly param: string };

export interface QueryField {
  /** The name shown in the syntax help: the shortest of `names` (`year`, `type`, `author`). */
  readonly name: string;
  /** Every name the box accepts, lower case: the parameter's name, its label in snake case, its aliases. */
  readonly names: readonly string[];
  readonly label: string;
  readonly target: QueryFieldTarget;
  /** Names of other deployments' fields that this one answers here (`doi` for identifier), in `names` too. */
  readonly standsFor?: readonly string[];
}

/** "Country of publication" → `country_of_publication`. */
const labelName = (label: string) =>
  label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

function field(label: string, target: QueryFieldTarget, ...names: (string | readonly string[] | undefined)[]): QueryField {
  const all = [
    ...new Set(
      names
        .flat()
        .filter((name): name is string => Boolean(name))
        .map((name) => name.toLowerCase()),
    ),
  ];
  const name = all.reduce((shortest, candidate) => (candidate.length < shortest.length ? candidate : shortest));
  return { name, names: all, label, target };
}

/** Which parameter kinds are fields of the box, and how their values are taken. */
const paramTargets: Partial<Record<ParamKind, 'text' | 'exact'>> = { text: 'text', exact: 'exact', repo_id: 'exact' };

export function compileQueryFields(deployment: Deployment): QueryField[] {
  const fields: QueryField[] = [];
  for (const param of deployment.params) {
    // The main box is where the syntax is typed; it is not a field of itself.
    if (!param.advanced) continue;
    const kind = paramTargets[param.kind];
    if (kind)
      fields.push({
        ...field(param.label, { kind, param: param.name }, param.name, labelName(param.label), param.queryAliases, param.upstream),
        ...(param.standsFor && { standsFor: param.standsFor }),
      });
  }
  for (const def of deployment.fields) {
    const bound = (which: 'start' | 'end') =>
      deployment.params.find((param) => param.kind === 'date' && param.field === def.name && param.bound === which)?.name;
    const [start, end] = [bound('start'), bound('end')];
    if (start && end) fields.push(field(def.label, { kind: 'date-range', start, end }, def.name, labelName(def.label), def.queryAliases));
  }
  for (const facet of deployment.facets) {
    const param = facet.criterion.kind === 'extension' ? facet.criterion.param : undefined;
    // An extension that selects what a parameter already searches (the author facet's exact
    // name beside `author:`) would list one label twice; the facet offers it instead.
    if (param === undefined || fields.some((other) => other.label === facet.label)) continue;
    fields.push(field(facet.label, { kind: 'extension', param }, param, labelName(facet.label), facet.queryAliases));
  }
  // A name claimed twice keeps its first field (parameters before dates before facets), so
  // a facet added to the table can never take a name the box already reads otherwise.
  const claimed = new Set<string>();
  const own = fields
    .map((each) => {
      const names = each.names.filter((name) => !claimed.has(name));
      for (const name of names) claimed.add(name);
      return names.length === each.names.length ? each : { ...each, names, name: names.includes(each.name) ? each.name : names[0]! };
    })
    .filter((each) => each.names.length > 0);
  // Then the names a field answers for others (`doi:` as identifier), where no field here has them.
  return own.map((each) => {
    const standsFor = (each.standsFor ?? []).filter((name) => !claimed.has(name));
    for (const name of standsFor) claimed.add(name);
    const { standsFor: _asked, ...rest } = each;
    return standsFor.length > 0 ? { ...rest, names: [...each.names, ...standsFor], standsFor } : rest;
  });
}
