import { z } from 'zod';

/**
 * The JSON body of the local server's `GET {base}/facets` extension: for the search given
 * by the usual criteria, each requested facet's values with exact counts, one page of
 * values at a time. Every count equals the `X-Total-Count` of the search plus `params`.
 */
export const facetValueSchema = z.object({
  value: z.string(),
  count: z.number().int().nonnegative(),
  /** The parameters that select this value, to add to the search's own. */
  params: z.record(z.string(), z.string()),
  /**
   * The spellings this value stands for (its own first), where records write it more than one
   * way (`Fredrickson, E. D.`, `Fredrickson, E.D.`): its count and its selection take them all.
   */
  variants: z.array(z.string()).optional(),
});

/** A value the search selects or excludes (`facet.NAME` / `exclude.NAME`), counted as the listed values are. */
export const facetChoiceSchema = z.object({
  value: z.string(),
  count: z.number().int().nonnegative(),
});

export const facetCountsSchema = z.object({
  name: z.string(),
  label: z.string(),
  /** How many distinct values the matching records have. */
  distinct: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  values: z.array(facetValueSchema),
  /** Whether values beyond this page exist (ask again with `facet_offset`). */
  more: z.boolean(),
  /** The facet's selected and excluded values, from a server that combines facets (absent otherwise). */
  selected: z.array(facetChoiceSchema).optional(),
  excluded: z.array(facetChoiceSchema).optional(),
});

export const facetsResponseSchema = z.object({
  /** Records matching the search, as `X-Total-Count` of `/records` gives. */
  total: z.number().int().nonnegative(),
  facets: z.array(facetCountsSchema),
  /**
   * The server takes repeatable `facet.NAME` / `exclude.NAME`, `facet_contains` and
   * `facet_limit.NAME`, and counts each facet without its own selection (docs/extensions.md).
   */
  combinable: z.boolean().optional(),
});

export type FacetValue = z.infer<typeof facetValueSchema>;
export type FacetChoice = z.infer<typeof facetChoiceSchema>;
export type FacetCounts = z.infer<typeof facetCountsSchema>;
export type FacetsResponse = z.infer<typeof facetsResponseSchema>;
