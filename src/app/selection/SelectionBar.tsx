import { useId, useState } from 'react';
import type { Deployment } from '../../deployments/schema';
import { CiteButton } from '../cite/CiteButton';
import { exportFormats, exportFormatSchema, type ExportFormatId } from '../export/export-formats';
import { GeneratedInSelection } from '../ui/GeneratedNotice';
import { saveBlob } from '../ui/save-blob';
import { SelectedList } from './SelectedList';
import { maxSelection } from './selection-store';
import { useSelection } from './use-selection';
import './selection.css';

export interface SelectionBarProps {
  readonly deployment: Deployment;
  /** BibTeX key prefix for citing and exporting the selection (the local server's default otherwise). */
  readonly bibtexPrefix?: string;
}

const numbers = new Intl.NumberFormat('en');

/**
 * The selected records of a deployment: how many, Clear, Cite and Export. Shown only while
 * something is selected; the selection itself outlives pages and reloads.
 */
export function SelectionBar({ deployment, bibtexPrefix }: SelectionBarProps) {
  const selection = useSelection(deployment);
  const formatId = useId();
  const [format, setFormat] = useState<ExportFormatId>('bibtex');
  const listId = useId();
  const [listOpen, setListOpen] = useState(false);
  if (selection.count === 0) return null;

  async function exportSelected() {
    // The codecs load on first export, keeping them out of the results page's first load.
    const { exportSelection } = await import('../export/selection-export');
    const file = exportSelection(deployment, selection.records, format, { bom: format === 'csv', bibtexPrefix, generated: selection.generated });
    saveBlob(file.blob, file.fileName);
  }

  return (
    <section className="selection-bar" aria-label="Selection">
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
        Selected ({numbers.format(selection.count)})
      </button>
      <button type="button" className="button" onClick={selection.clear}>
        Clear selection
      </button>
      <CiteButton deployment={deployment} records={selection.records} label="Cite selected" bibtexPrefix={bibtexPrefix} generated={selection.generated} />
      <div className="selection-bar__export">
        <label htmlFor={formatId}>Export format</label>
        <select
          id={formatId}
          value={format}
          onChange={(event) => {
            const parsed = exportFormatSchema.safeParse(event.target.value);
            if (parsed.success) setFormat(parsed.data);
          }}
        >
          {exportFormats.map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
            </option>
          ))}
        </select>
        <button type="button" className="button" onClick={() => void exportSelected()}>
          Export selected
        </button>
      </div>
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
      {selection.full && (
        <p className="selection-bar__note">
          The selection is full ({numbers.format(maxSelection)} records). To export more, download the whole result set.
        </p>
      )}
      <GeneratedInSelection records={selection.records} generated={selection.generated} />
      {!selection.persisted && <p className="selection-bar__note">This selection is too large to keep after a reload.</p>}
    </section>
  );
}
