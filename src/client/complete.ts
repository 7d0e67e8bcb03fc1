import { completeResponseSchema, type Completion } from '../formats/complete-response';
import type { RequestOptions } from './http';
import { fetchOptionalExtension } from './optional-extension';

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
  const answer = await fetchOptionalExtension(url, completeResponseSchema, 'completion', options);
  return answer && answer.values;
}
