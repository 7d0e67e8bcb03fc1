import { suggestResponseSchema, type Suggestion } from '../formats/suggest-response';
import type { RequestOptions } from './http';
import { fetchOptionalExtension } from './optional-extension';

/**
 * "Did you mean" from a server with the `/suggest` extension (docs/extensions.md). A spec
 * server has none: its 404 is no suggestion, never an error the reader sees.
 */
export async function fetchSuggestion(baseUrl: string, q: string, options: RequestOptions): Promise<Suggestion | null> {
  const url = `${baseUrl.replace(/\/+$/, '')}/suggest?q=${encodeURIComponent(q)}`;
  const answer = await fetchOptionalExtension(url, suggestResponseSchema, 'suggestion', options);
  return answer && answer.suggestion;
}
