import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { ApiAuth } from '../../client/auth';
import { fetchSuggestion } from '../../client/suggest';
import { queryString } from '../../client/urls';
import type { Deployment } from '../../deployments/schema';
import { readNavigationState } from '../navigation/navigation-state';
import { firstValues, withValues, type Entries } from '../navigation/query-params';
import { mainParam } from './form-params';
import { searchKeys } from './search-keys';

/**
 * "Did you mean", from a server with the `/suggest` extension (`enabled`: config.json says
 * the local server's extensions are there). A search that finds nothing is replaced at once
 * by its suggestion's, saying so, with a link to search as typed; a search that finds some
 * but whose commoner spelling would find far more is offered it. The URL always says what
 * was searched; what was typed rides in history state.
 */
export function SpellingSuggestion({
  deployment,
  entries,
  baseUrl,
  auth,
  enabled,
  total,
}: {
  deployment: Deployment;
  entries: Entries;
  baseUrl: string;
  auth: ApiAuth | undefined;
  enabled: boolean;
  /** The search's count, once known. */
  total: number | undefined;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  const state = readNavigationState(location.state);
  const main = mainParam(deployment);
  const q = main ? firstValues(entries)[main.name] : undefined;
  const { data: suggestion } = useQuery({
    queryKey: searchKeys.suggestion(deployment.key, baseUrl, q),
    queryFn: ({ signal }) => fetchSuggestion(baseUrl, q!, { signal, auth }),
    enabled: enabled && main !== undefined && q !== undefined && q.trim() !== '' && state.corrected === undefined,
    staleTime: Infinity,
    retry: false,
  });
  const searchFor = (value: string) => `/${deployment.slug}${queryString(withValues(entries, { [main!.name]: value, page: undefined }))}`;
  const replaceNow = suggestion && total === 0 && !state.literal && state.corrected === undefined;
  useEffect(() => {
    if (replaceNow && q !== undefined) void navigate(searchFor(suggestion.q), { replace: true, state: { corrected: q } });
    // searchFor reads only entries and deployment, both listed through q and suggestion.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [replaceNow, suggestion, q]);

  if (!main || q === undefined) return null;
  if (state.corrected !== undefined) {
    return (
      <p className="notice spelling" role="status">
        Showing results for <strong>{q}</strong> — search instead for{' '}
        <Link to={searchFor(state.corrected)} state={{ literal: true }}>
          {state.corrected}
        </Link>
      </p>
    );
  }
  if (suggestion && total !== undefined && (total > 0 || state.literal)) {
    return (
      <p className="notice spelling">
        Did you mean <Link to={searchFor(suggestion.q)}>{suggestion.q}</Link>?
      </p>
    );
  }
  return null;
}
