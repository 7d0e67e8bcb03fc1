import { Fragment, useEffect, useId, useRef, useState } from 'react';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { noGeneratedIds, type GeneratedIds } from '../../formats/generated-mark';
import { GeneratedBadge, GeneratedInSelection, GeneratedNotice } from '../ui/GeneratedNotice';
import { errorMessage } from '../ui/error-message';
import { CitationView } from './CitationView';
import { useCitations } from './cite-queries';
export { preloadCitations } from './cite-queries';
import type { StyleEntry } from '../../formats/csl-style-index';
import { citationStyles, citationStyleSchema, isRepositoryStyleId, type CitationStyleId } from './cite-styles';
import { copyRichText } from './clipboard';
import { readRecentStyles, readStylePreference, rememberRecentStyle, writeStylePreference, type RecentStyle } from './style-preference';
import { StyleFinder } from './StyleFinder';
import './cite.css';

export interface CiteDialogProps {
  readonly deployment: Deployment;
  /** The records to cite: one on a record page, the selection from the selection bar. */
  readonly records: readonly ApiRecord[];
  readonly open: boolean;
  /** Called when the dialog closes (Close button, Escape); the opener sets `open` false. */
  readonly onClose: () => void;
  /** Key prefix of BibTeX citations; the local server's default when left out. */
  readonly bibtexPrefix?: string;
  /** Which of the records are generated demo data: said at the top, before anything is copied. */
  readonly generated?: GeneratedIds;
}

type CopyState = { status: 'idle' } | { status: 'copied'; count: number } | { status: 'failed'; message: string };

/**
 * A modal dialog offering each record's citation in six styles, as BibTeX (the API's and
 * the full), and in any style of the CSL repository found by search (the recent ones offered
 * first). The native <dialog> traps focus and closes on Escape; focus goes back to whatever
 * opened it.
 */
export function CiteDialog({ deployment, records, open, onClose, bibtexPrefix, generated = noGeneratedIds }: CiteDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const headingId = useId();
  const styleId = useId();
  const styleSelect = useRef<HTMLSelectElement>(null);
  const [style, setStyle] = useState<CitationStyleId>(() => readStylePreference());
  const [recent, setRecent] = useState<readonly RecentStyle[]>(() => readRecentStyles());
  const [copy, setCopy] = useState<CopyState>({ status: 'idle' });
  const citations = useCitations(deployment, records, style, { enabled: open, bibtexPrefix, generated });

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setCopy({ status: 'idle' });
      // Another dialog on the page may have added one since.
      setRecent(readRecentStyles());
      element.showModal();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  function handleClose() {
    onClose();
    // Browsers restore focus after a modal dialog unevenly; do it explicitly.
    opener.current?.focus();
  }

  function chooseStyle(value: string) {
    const parsed = citationStyleSchema.safeParse(value);
    if (!parsed.success) return;
    setStyle(parsed.data);
    writeStylePreference(parsed.data);
    setCopy({ status: 'idle' });
  }

  function chooseFound(entry: StyleEntry) {
    const id = `csl:${entry.id}` as const;
    setRecent(rememberRecentStyle({ id, title: entry.title }));
    chooseStyle(id);
    // The results are gone; the choice is now the selected style.
    styleSelect.current?.focus();
  }

  // The style in use is always offered, even when the recent list was cleared.
  const recentOptions =
    isRepositoryStyleId(style) && !recent.some((entry) => entry.id === style)
      ? [{ id: style, title: style.slice('csl:'.length) }, ...recent]
      : recent;

  async function copyCitations() {
    if (!citations.data) return;
    try {
      await copyRichText(citations.data);
      setCopy({ status: 'copied', count: citations.data.entries.length });
    } catch (error) {
      setCopy({ status: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }

  const count = records.length;
  return (
    <dialog ref={dialog} className="cite-dialog" aria-labelledby={headingId} onClose={handleClose}>
      <div className="cite-dialog__header">
        <h2 id={headingId}>Cite</h2>
        <button type="button" className="button button--quiet" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      {records.length === 1 && generated.has(records[0]!.repo_id) && <GeneratedNotice />}
      {records.length > 1 && <GeneratedInSelection records={records} generated={generated} />}
      {count > 1 && <p className="cite-dialog__count">{count.toLocaleString('en')} records</p>}
      <div className="field cite-dialog__style">
        <label htmlFor={styleId}>Citation style</label>
        <select ref={styleSelect} id={styleId} value={style} onChange={(event) => chooseStyle(event.target.value)}>
          {recentOptions.length > 0 && (
            <optgroup label="Recent styles">
              {recentOptions.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.title}
                </option>
              ))}
            </optgroup>
          )}
          <optgroup label="Common styles">
            {citationStyles.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label}
              </option>
            ))}
          </optgroup>
        </select>
      </div>
      <StyleFinder onChoose={chooseFound} />
      {open && <Citations citations={citations} />}
      <div className="cite-dialog__actions">
        <button type="button" className="button button--primary" disabled={!citations.data} onClick={() => void copyCitations()}>
          Copy
        </button>
        {/* Kept in the document so that "Copied" is announced when it appears. */}
        <p role="status" className="cite-dialog__status">
          {copy.status === 'copied' ? (copy.count > 1 ? `Copied ${copy.count} citations` : 'Copied') : ''}
        </p>
      </div>
      {copy.status === 'failed' && (
        <p role="alert" className="field__error">
          Could not copy: {copy.message} Select the citation text and copy it instead.
        </p>
      )}
    </dialog>
  );
}

function Citations({ citations }: { citations: ReturnType<typeof useCitations> }) {
  if (citations.isPending) return <p className="loading">Formatting citations…</p>;
  if (citations.isError) {
    const { title, detail } = errorMessage(citations.error);
    return (
      <div className="error-state" role="alert">
        <p className="error-state__title">The citations could not be made. {title}</p>
        <p>{detail}</p>
        <button type="button" className="button" onClick={() => void citations.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  const { kind, entries } = citations.data;
  return (
    <div className="cite-dialog__citations" aria-label="Citations" role="region" tabIndex={0}>
      {entries.map((entry, index) =>
        kind === 'bibtex' ? (
          <Fragment key={index}>
            {entry.generated && <GeneratedBadge />}
            <pre className="cite-dialog__bibtex">{entry.text}</pre>
          </Fragment>
        ) : (
          <div key={index} className="cite-dialog__citation">
            <CitationView nodes={entry.nodes} />
          </div>
        ),
      )}
    </div>
  );
}
