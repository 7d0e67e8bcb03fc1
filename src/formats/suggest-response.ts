import { z } from 'zod';

/**
 * The JSON body of the local server's `GET {base}/suggest?q=…` extension ("Did you mean"):
 * the search's words as the mirror's records spell them, or null when they need nothing.
 */
export const suggestionSchema = z.object({
  /** The whole search with the words corrected, the rest as given. */
  q: z.string(),
  words: z.array(z.object({ word: z.string(), suggestion: z.string() })),
  /** `unknown`: some word is in no record, so the search finds nothing; `rarer`: a commoner spelling finds far more. */
  reason: z.enum(['unknown', 'rarer']),
});

export const suggestResponseSchema = z.object({
  q: z.string(),
  suggestion: suggestionSchema.nullable(),
});

export type Suggestion = z.infer<typeof suggestionSchema>;
export type SuggestResponse = z.infer<typeof suggestResponseSchema>;
