import { useId, useState, type ReactNode } from 'react';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import type { GeneratedIds } from '../../formats/generated-mark';
import { GeneratedInSelection } from '../ui/GeneratedNotice';
import { SelectedList } from './SelectedList';
import { maxSelection } from './selection-store';
import { useSelection } from './use-selection';

export interface SelectionBarProps {
  readonly deployment: Deployment;
  /** What can be done with the selected records (cite, export), composed by the page. */
  readonly actions: (records: readonly ApiRecord[], generated: GeneratedIds) => ReactNode;
}

const numbers = new Intl.NumberFormat('en');

/**
 * The selected records of a deployment: how many, Clear, Cite and Export. Shown only while
 * something is selected; the selection itself outlives pages and reloads.
 */
export function SelectionBarBody({ deployment, actions }: SelectionBarProps) {
  const selection = useSelection(deployment);
  const listId = useId();
  const [listOpen, setListOpen] = useState(false);
  if (selection.count === 0) return null;
  const generated = selection.records.filter((record) => selection.generated.has(record.repo_id)).length;

  return (
    // Open, the bar shows its list and notes; closed on a phone it is two rows of buttons (selection.css).
    <section className={`selection-bar${listOpen ? ' selection-bar--open' : ''}`} aria-label="Selection">
      <p className="selection-bar__count" role="status">
        {numbers.format(selection.count)} selected
      </p>
      <button
        type="button"
        className="button"
        aria-expanded={listOpen}
        aria-controls={listOpen ? listId : undefined}
        onClick={() => setListOpen(!listOpen)}
      >
        Selected ({numbers.format(selection.count)}
        {generated > 0 && <span className="selection-bar__generated">, {numbers.format(generated)} generated</span>})
      </button>
      {/* On a phone the buttons say less ("Clear"), their names as much (selection.css). */}
      <button type="button" className="button" aria-label="Clear selection" onClick={selection.clear}>
        Clear<span className="selection-bar__long"> selection</span>
      </button>
      {actions(selection.records, selection.generated)}
      {listOpen && (
        <SelectedList
          deployment={deployment}
          id={listId}
          onEmpty={() => {
            // The bar goes with the last record: focus moves to the page's main content.
            setListOpen(false);
            document.getElementById('main')?.focus();
          }}
        />
      )}
      <div className="selection-bar__notes">
        {selection.full && (
          <p className="selection-bar__note">
            The selection is full ({numbers.format(maxSelection)} records). To export more, download the whole result set.
          </p>
        )}
        <GeneratedInSelection records={selection.records} generated={selection.generated} />
        {!selection.persisted && <p className="selection-bar__note">This selection is too large to keep after a reload.</p>}
      </div>
    </section>
  );
}
