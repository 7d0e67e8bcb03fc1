import { completeResponseSchema, type Completion } from '../formats/complete-response';
import { ApiRequestError, InvalidResponseError } from './errors';
import { getText, type RequestOptions } from './http';
import { describeIssue, parseJson } from './responses';

/**
 * Type-ahead from a server with the `/complete` extension (docs/extensions.md): values that
 * start with what was typed, with their counts. A spec server has none: its 404 is no
 * type-ahead (null), never an error the reader sees.
 */
export async function fetchCompletions(
  baseUrl: string,
  prefix: string,
  fields: readonly string[],
  options: RequestOptions,
): Promise<Completion[] | null> {
  const query = new URLSearchParams({ prefix, limit: '8' });
  for (const field of fields) query.append('field', field);
  const url = `${baseUrl.replace(/\/+$/, '')}/complete?${query.toString()}`;
  let answer;
  try {
    answer = await getText(url, options);
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) return null;
    throw error;
  }
  const parsed = completeResponseSchema.safeParse(parseJson(answer, url));
  if (!parsed.success) throw new InvalidResponseError(url, `${describeIssue(parsed.error.issues[0]!, 'completion')}.`);
  return parsed.data.values;
}
