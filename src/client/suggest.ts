import { suggestResponseSchema, type Suggestion } from '../formats/suggest-response';
import { ApiRequestError, InvalidResponseError } from './errors';
import { getText, type RequestOptions } from './http';
import { describeIssue, parseJson } from './responses';

/**
 * "Did you mean" from a server with the `/suggest` extension (docs/extensions.md). A spec
 * server has none: its 404 is no suggestion, never an error the reader sees.
 */
export async function fetchSuggestion(baseUrl: string, q: string, options: RequestOptions): Promise<Suggestion | null> {
  const url = `${baseUrl.replace(/\/+$/, '')}/suggest?q=${encodeURIComponent(q)}`;
  let answer;
  try {
    answer = await getText(url, options);
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) return null;
    throw error;
  }
  const parsed = suggestResponseSchema.safeParse(parseJson(answer, url));
  if (!parsed.success) throw new InvalidResponseError(url, `${describeIssue(parsed.error.issues[0]!, 'suggestion')}.`);
  return parsed.data.suggestion;
}
