import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { deploymentByKey, displayName } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { useFeedUrl } from '../config/config-context';
import { RichText } from '../ui/RichText';
import { saveBlob } from '../ui/save-blob';
import type { HistoryStore, SavedSearch, RecentSearch } from './history-store';
import { describeQuery, newSinceQuery } from './new-since';
import { exportSavedSearches, importSavedSearches } from './saved-file';

/**
 * The history panel's contents, loaded when it is first opened (most visits never open it,
 * and the first page's scripts have a budget): saving the current search, the saved and the
 * recent searches, and saved searches to and from a file.
 */

const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

const searchPath = (deploymentKey: string, query: string) => {
  const deployment = deploymentByKey(deploymentKey)!;
  return `/${deployment.slug}${query ? `?${query}` : ''}`;
};

export interface HistoryPanelProps {
  readonly deployment: Deployment;
  readonly hasSearch: boolean;
  readonly query: string;
  readonly recent: readonly RecentSearch[];
  readonly saved: readonly SavedSearch[];
  readonly persisted: boolean;
  readonly store: HistoryStore;
  /** Says what an action did, in the panel's status line (kept by the section, so it is announced). */
  readonly setMessage: (message: string) => void;
}

export function HistoryPanel({ deployment, hasSearch, query, recent, saved, persisted, store, setMessage }: HistoryPanelProps) {
  const [name, setName] = useState('');
  const nameId = useId();
  const importId = useId();
  const nameInput = useRef<HTMLInputElement>(null);
  const alreadySaved = saved.find((item) => item.deployment === deployment.key && item.query === query);

  function save(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setMessage('Give the search a name to save it.');
      nameInput.current?.focus();
      return;
    }
    store.save(deployment.key, query, trimmed);
    setName('');
    setMessage(`Saved “${trimmed}”.`);
  }

  async function importFile(file: File | undefined) {
    if (!file) return;
    try {
      const { added, skipped } = importSavedSearches(store, await file.text());
      setMessage(
        `Imported ${added} saved ${added === 1 ? 'search' : 'searches'}${skipped ? ` (${skipped} already saved or unreadable)` : ''}.`,
      );
    } catch (error) {
      setMessage((error as Error).message);
    }
  }

  return (
    <>
      {hasSearch && !alreadySaved && (
        <form className="search-history__save" onSubmit={save}>
          <label htmlFor={nameId}>Name for this search</label>
          <input id={nameId} ref={nameInput} value={name} maxLength={200} onChange={(event) => setName(event.target.value)} />
          <button type="submit" className="button">
            Save search
          </button>
        </form>
      )}
      {alreadySaved && <p>This search is saved as “{alreadySaved.name}”.</p>}
      {!persisted && <p className="search-history__note">This browser does not keep site data: history lasts until the page is closed.</p>}

      <h3>Saved searches</h3>
      {saved.length === 0 ? (
        <p>No saved searches yet.</p>
      ) : (
        <ul className="search-history__list">
          {saved.map((item) => (
            <SavedItem key={item.id} item={item} onVisit={() => store.visit(item.id)} onRemove={() => store.removeSaved(item.id)} />
          ))}
        </ul>
      )}
      <div className="search-history__files">
        <button
          type="button"
          className="button"
          disabled={saved.length === 0}
          onClick={() => saveBlob(new Blob([exportSavedSearches(saved)], { type: 'application/json' }), 'saved-searches.json')}
        >
          Export saved searches
        </button>
        <label htmlFor={importId} className="search-history__import">
          Import saved searches (JSON)
        </label>
        <input
          id={importId}
          type="file"
          accept="application/json,.json"
          onChange={(event) => {
            void importFile(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
      </div>

      <h3>Recent searches</h3>
      {recent.length === 0 ? (
        <p>No searches yet.</p>
      ) : (
        <>
          <ol className="search-history__list">
            {recent.map((item) => (
              <li key={`${item.deployment}?${item.query}`}>
                <Link to={searchPath(item.deployment, item.query)}>
                  <RichText text={describeQuery(item.deployment, item.query)} inline />
                </Link>{' '}
                <span className="search-history__meta">
                  {displayName(deploymentByKey(item.deployment)!)}, {dateTime.format(new Date(item.at))}
                </span>
              </li>
            ))}
          </ol>
          <button type="button" className="button" onClick={() => store.clearRecent()}>
            Clear recent searches
          </button>
        </>
      )}
    </>
  );
}

function SavedItem({ item, onVisit, onRemove }: { item: SavedSearch; onVisit: () => void; onRemove: () => void }) {
  const deployment = deploymentByKey(item.deployment)!;
  const feedUrl = useFeedUrl(deployment);
  return (
    <li>
      <Link to={searchPath(item.deployment, item.query)} onClick={onVisit}>
        {item.name}
      </Link>{' '}
      <span className="search-history__meta">
        <RichText text={describeQuery(item.deployment, item.query)} inline /> — {displayName(deployment)}
      </span>{' '}
      <Link to={searchPath(item.deployment, newSinceQuery(deployment, item.query, item.lastVisit))} onClick={onVisit}>
        New since {dateTime.format(new Date(item.lastVisit))}
      </Link>{' '}
      {feedUrl && (
        <>
          <a href={feedUrl(item.query)} type="application/atom+xml" aria-label={`Subscribe to ${item.name} (Atom)`}>
            Subscribe (Atom)
          </a>{' '}
        </>
      )}
      <button type="button" className="button" onClick={onRemove} aria-label={`Remove saved search ${item.name}`}>
        Remove
      </button>
    </li>
  );
}
