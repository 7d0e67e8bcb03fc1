import { z } from 'zod';

/**
 * The JSON body of the local server's `GET {base}/complete?prefix=…` extension (type-ahead):
 * values of the fields that complete (the deployment table's `typeAhead` facets) that start
 * with what was typed, each with the records it selects and the parameters that select them.
 */
export const completionSchema = z.object({
  /** The facet the value is of (`author`, `subject`, `research_org`…). */
  field: z.string(),
  /** The value as the facet shows it: a group's commonest spelling. */
  value: z.string(),
  /** Records the value selects over the whole catalog: the `X-Total-Count` of `params`. */
  count: z.number().int().nonnegative(),
  /** Every spelling the value stands for and selects (its own first), where it has more than one. */
  variants: z.array(z.string()).optional(),
  /** The search parameters that select exactly the value's records, as ticking the facet value does. */
  params: z.record(z.string(), z.string()),
});

export const completeResponseSchema = z.object({
  prefix: z.string(),
  values: z.array(completionSchema),
});

export type Completion = z.infer<typeof completionSchema>;
export type CompleteResponse = z.infer<typeof completeResponseSchema>;
