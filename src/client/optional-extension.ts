import type { z } from 'zod';
import { ApiRequestError, InvalidResponseError } from './errors';
import { getText, type RequestOptions } from './http';
import { describeIssue, parseJson } from './responses';

/**
 * An extension endpoint's answer, read by its schema; null where the server has no such
 * endpoint (a spec server's 404), which the app treats as "nothing to offer", never an error.
 */
export async function fetchOptionalExtension<T>(
  url: string,
  schema: z.ZodType<T>,
  what: string,
  options: RequestOptions,
): Promise<T | null> {
  let answer;
  try {
    answer = await getText(url, options);
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) return null;
    throw error;
  }
  const parsed = schema.safeParse(parseJson(answer, url));
  if (!parsed.success) throw new InvalidResponseError(url, `${describeIssue(parsed.error.issues[0]!, what)}.`);
  return parsed.data;
}
