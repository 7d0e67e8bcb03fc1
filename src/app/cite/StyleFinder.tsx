import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useMemo, useState, type KeyboardEvent } from 'react';
import type { StyleEntry } from '../../formats/csl-style-index';
import { errorMessage } from '../ui/error-message';
import { citeKeys } from './cite-keys';
import { loadStyleCatalog } from './style-catalog';
import { styleSearch } from './style-search';

const shown = 25;

const describe = (entry: StyleEntry) =>
  [entry.shortTitle && entry.shortTitle !== entry.title ? entry.shortTitle : '', entry.fields.join(', '), entry.format].filter(Boolean);

/**
 * A search over every style of the CSL repository. The index is fetched the first time the
 * field is used; choosing a style hands it to the dialog, which loads its file.
 */
export function StyleFinder({ onChoose }: { readonly onChoose: (entry: StyleEntry) => void }) {
  const inputId = useId();
  const helpId = useId();
  const [query, setQuery] = useState('');
  const [wanted, setWanted] = useState(false);
  const deferredQuery = useDeferredValue(query);
  const catalog = useQuery({
    queryKey: citeKeys.styleCatalog(),
    queryFn: () => loadStyleCatalog(),
    enabled: wanted,
    staleTime: Infinity,
    retry: 1,
  });
  const search = useMemo(() => (catalog.data ? styleSearch(catalog.data.entries) : undefined), [catalog.data]);
  const result = useMemo(() => search?.find(deferredQuery, shown), [search, deferredQuery]);

  function choose(entry: StyleEntry) {
    setQuery('');
    onChoose(entry);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' && result?.matches[0]) {
      event.preventDefault();
      choose(result.matches[0]);
    } else if (event.key === 'Escape' && query) {
      // Clears the search; a second Escape closes the dialog.
      event.preventDefault();
      setQuery('');
    }
  }

  let status = '';
  if (query.trim() && catalog.isPending) status = 'Loading the list of styles…';
  else if (query.trim() && result)
    status =
      result.total === 0
        ? `No style matches “${query.trim()}”.`
        : result.total > shown
          ? `${result.total.toLocaleString('en')} styles match; the first ${shown} are shown.`
          : `${result.total.toLocaleString('en')} ${result.total === 1 ? 'style matches' : 'styles match'}.`;

  return (
    <div className="cite-style-finder">
      <div className="field">
        <label htmlFor={inputId}>Find another style</label>
        <input
          id={inputId}
          type="search"
          value={query}
          autoComplete="off"
          aria-describedby={helpId}
          onFocus={() => setWanted(true)}
          onChange={(event) => {
            setWanted(true);
            setQuery(event.target.value);
          }}
          onKeyDown={handleKeyDown}
        />
        <p id={helpId} className="field__help">
          Any of the <a href="https://citationstyles.org/">Citation Style Language</a> project’s styles (CC BY-SA 3.0), by name or field:
          “physical review”, “chemistry”.
        </p>
      </div>
      {catalog.isError && query.trim() ? (
        <div role="alert" className="error-state">
          <p>The list of styles could not be loaded. {errorMessage(catalog.error).title}</p>
          <button type="button" className="button" onClick={() => void catalog.refetch()}>
            Try again
          </button>
        </div>
      ) : null}
      {/* Announced politely as it changes; the dialog's one status is Copy's. */}
      <p aria-live="polite" className="cite-style-finder__status">
        {status}
      </p>
      {query.trim() && result && result.matches.length > 0 && (
        <ul className="cite-style-finder__results" aria-label="Matching styles">
          {result.matches.map((entry) => (
            <li key={entry.id}>
              <button type="button" className="cite-style-finder__choice" onClick={() => choose(entry)}>
                {/* A comma the eye does not need (the line breaks there) but the button's name does: "Nature, science", not "Naturescience". */}
                <span className="cite-style-finder__title">
                  {entry.title}
                  <span className="cite-style-finder__comma">,</span>
                </span>
                <span className="cite-style-finder__meta">{describe(entry).join(', ')}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
