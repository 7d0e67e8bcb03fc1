import { z } from 'zod';
import type { ParsedReference } from './reference-input';

/** Messages between the page and the worker that reads a reference list. */

export const parsedReferenceSchema: z.ZodType<ParsedReference> = z.object({
  kind: z.enum(['doi', 'formatted', 'bibtex', 'ris']),
  text: z.string(),
  doi: z.string().optional(),
  year: z.number().optional(),
  surnames: z.array(z.string()),
  title: z.string().optional(),
  problem: z.string().optional(),
});

export const toReaderSchema = z.object({ type: z.literal('read'), text: z.string() });
export type ToReader = z.infer<typeof toReaderSchema>;

export const fromReaderSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('read'), references: z.array(parsedReferenceSchema), leftOut: z.number().int().nonnegative() }),
  /** `unreadable`: the input is not a reference list (binary, too large), said as it is. */
  z.object({ type: z.literal('failed'), unreadable: z.boolean(), message: z.string() }),
]);
export type FromReader = z.infer<typeof fromReaderSchema>;
