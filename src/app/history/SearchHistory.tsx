import { lazy, Suspense, useEffect, useId, useState } from 'react';
import type { Deployment } from '../../deployments/schema';
import { searchQuery } from './history-store';
import { useHistory } from './use-history';
import './history.css';

const HistoryPanel = lazy(() => import('./HistoryPanel').then((module) => ({ default: module.HistoryPanel })));

export interface SearchHistoryProps {
  readonly deployment: Deployment;
  /** The current search's parameters; empty when nothing has been searched yet. */
  readonly entries: readonly (readonly [string, string])[];
}

/**
 * Recent and saved searches, kept in this browser: every search is remembered (the last
 * 50), the current one can be saved under a name, and each saved search offers what was
 * entered since it was last opened. Saved searches travel between browsers as a JSON file.
 * The panel's contents load when it is first opened (HistoryPanel.tsx).
 */
export function SearchHistory({ deployment, entries }: SearchHistoryProps) {
  const { recent, saved, persisted, store } = useHistory();
  const query = searchQuery(deployment, entries);
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const panelId = useId();

  useEffect(() => {
    if (entries.length > 0) store.record(deployment.key, query);
  }, [store, deployment.key, query, entries.length]);

  return (
    <section className="search-history" aria-labelledby={`${panelId}-heading`}>
      <h2 id={`${panelId}-heading`} className="search-history__heading">
        <button
          type="button"
          className="search-history__toggle"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen(!open)}
          onPointerEnter={() => void import('./HistoryPanel').catch(() => undefined)}
        >
          History and saved searches ({saved.length} saved)
        </button>
      </h2>
      <p className="search-history__status" role="status">
        {message}
      </p>
      <div id={panelId} hidden={!open} className="search-history__panel">
        {open && (
          <Suspense fallback={<p className="loading">Loading your searches…</p>}>
            <HistoryPanel
              deployment={deployment}
              hasSearch={entries.length > 0}
              query={query}
              recent={recent}
              saved={saved}
              persisted={persisted}
              store={store}
              setMessage={setMessage}
            />
          </Suspense>
        )}
      </div>
    </section>
  );
}
