import { z } from 'zod';
import { deploymentKeys } from '../../deployments/schema';
import { exportFormatSchema } from './export-formats';

/**
 * Messages between the page and the download worker. The worker fetches and formats; the
 * page writes each chunk to the file and acknowledges it, which paces the worker to the
 * speed of the disk.
 */

export const startMessageSchema = z.object({
  type: z.literal('start'),
  deployment: z.enum(deploymentKeys),
  searchUrl: z.string(),
  format: exportFormatSchema,
  cap: z.number().int().positive(),
  bom: z.boolean(),
  /** A private mirror's token and its origin (config.json). */
  auth: z.object({ token: z.string(), origin: z.string() }).optional(),
});

export const toWorkerSchema = z.discriminatedUnion('type', [
  startMessageSchema,
  z.object({ type: z.literal('written') }),
  z.object({ type: z.literal('cancel') }),
]);
export type ToWorker = z.infer<typeof toWorkerSchema>;

const count = z.number().int().nonnegative();

export const progressSchema = z.object({
  written: count,
  /** X-Total-Count of the search, capped; absent while unknown. */
  expected: count.optional(),
  /** X-Total-Count itself. */
  total: count.optional(),
});
export type DownloadProgress = z.infer<typeof progressSchema>;

export const outcomeSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('complete'), written: count, total: count.optional(), capped: z.boolean() }),
  z.object({ status: z.literal('incomplete'), written: count, total: count.optional(), reason: z.string() }),
  z.object({ status: z.literal('cancelled'), written: count, total: count.optional() }),
]);
export type DownloadOutcome = z.infer<typeof outcomeSchema>;

export const fromWorkerSchema = z.discriminatedUnion('type', [
  /** UTF-8 bytes of the next part of the file (transferred, not copied). */
  z.object({ type: z.literal('chunk'), bytes: z.instanceof(Uint8Array) }),
  progressSchema.extend({ type: z.literal('progress') }),
  z.object({ type: z.literal('retry'), page: count, attempt: count, delayMs: count, reason: z.string() }),
  z.object({ type: z.literal('done'), outcome: outcomeSchema }),
]);
export type FromWorker = z.infer<typeof fromWorkerSchema>;
