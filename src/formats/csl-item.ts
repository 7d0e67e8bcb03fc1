import { z } from 'zod';
import { cslTypeOfKind, type WorkKind } from './work-kinds';

/**
 * The CSL-JSON item this app writes, as a schema: its types are inferred from it, and the
 * tests validate every record's item against it. Apart from csl.ts, so the first page load
 * (which needs a record's kind of work, never an item's schema) does not build it.
 */

export const cslTypes = [...new Set(Object.values(cslTypeOfKind))] as [
  (typeof cslTypeOfKind)[WorkKind],
  ...(typeof cslTypeOfKind)[WorkKind][],
];

const cslPersonSchema = z.object({ family: z.string().min(1), given: z.string().optional() });
const cslLiteralSchema = z.object({ literal: z.string().min(1) });
export const cslNameSchema = z.union([cslPersonSchema, cslLiteralSchema]);
export type CslName = z.infer<typeof cslNameSchema>;

const datePartsSchema = z.union([
  z.tuple([z.number().int()]),
  z.tuple([z.number().int(), z.number().int()]),
  z.tuple([z.number().int(), z.number().int(), z.number().int()]),
]);
export const cslDateSchema = z.object({ 'date-parts': z.tuple([datePartsSchema]) });

/** The CSL-JSON fields this app writes (a subset of the CSL 1.0.2 schema). */
export const cslItemSchema = z.object({
  id: z.string().min(1),
  type: z.enum(cslTypes),
  /** CSL rich text: `<sub>`, `<sup>`, `<i>`, `<b>` are markup, everything else is text. */
  title: z.string().optional(),
  genre: z.string().optional(),
  author: z.array(cslNameSchema).optional(),
  issued: cslDateSchema.optional(),
  accessed: cslDateSchema.optional(),
  DOI: z.string().optional(),
  URL: z.string().optional(),
  publisher: z.string().optional(),
  'publisher-place': z.string().optional(),
  number: z.string().optional(),
  'container-title': z.string().optional(),
  volume: z.string().optional(),
  issue: z.string().optional(),
  abstract: z.string().optional(),
  keyword: z.string().optional(),
  language: z.string().optional(),
  note: z.string().optional(),
});
export type CslItem = z.infer<typeof cslItemSchema>;
export type CslType = CslItem['type'];
