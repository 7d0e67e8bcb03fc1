import { z } from 'zod';

/**
 * What a navigation carries beside the URL (history state). Only conveniences live here —
 * the URL alone always restores the view — and it is parsed, not trusted, because any
 * script on the origin could have written history state.
 */
export const navigationStateSchema = z
  .object({
    /** The exact API URL of a page the server linked (Link header), so paging never computes URLs. */
    apiUrl: z.string().optional(),
    /** The search a record page was opened from, for "Back to results". */
    from: z.object({ search: z.string(), apiUrl: z.string().optional() }).optional(),
    /** Criteria dropped by a deployment switch, already phrased for people. */
    notice: z.string().optional(),
    /** "Back to results": return to where the reader left the results. */
    restore: z.boolean().optional(),
    /** What was typed, where the search shown is its spelling suggestion ("Showing results for …"). */
    corrected: z.string().optional(),
    /** Searched as typed, on the reader's word: no spelling suggestion replaces it. */
    literal: z.boolean().optional(),
    /** Set when the user's focus must stay where it is (on the deployment select). */
    keepFocus: z.boolean().optional(),
  })
  .catch({});
export type NavigationState = z.infer<typeof navigationStateSchema>;

export function readNavigationState(state: unknown): NavigationState {
  return navigationStateSchema.parse(state ?? {});
}
