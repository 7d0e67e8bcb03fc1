import { lazy, Suspense, useId, useLayoutEffect, useRef, useState } from 'react';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { noGeneratedIds, type GeneratedIds } from '../../formats/generated-mark';

// The dialog (and, once it opens, the citation engine) loads on first use only.
const loadDialog = () => import('./CiteDialog');
const CiteDialog = lazy(() => loadDialog().then((module) => ({ default: module.CiteDialog })));
// Its styles come with the button, so the dialog shown while the rest loads looks like the one that follows.
import './cite.css';

/** A pointer on the button or focus on it: the dialog and the citation engine start loading before the click. */
function preload() {
  loadDialog().then(
    (module) => module.preloadCitations(),
    // A chunk that fails to load here is asked for again on the click, which says so.
    () => undefined,
  );
}

/**
 * The dialog shown at once on the first click, while its code and the citation engine load:
 * the same modal, named "Cite", saying what it is waiting for. Closed (before it leaves the
 * document, so the browser gives focus back to the button) when the real one takes its place.
 */
function LoadingDialog({ onClose }: { readonly onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  useLayoutEffect(() => {
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog ref={dialog} className="cite-dialog" aria-labelledby={headingId} aria-busy="true" onClose={onClose}>
      <div className="cite-dialog__header">
        <h2 id={headingId}>Cite</h2>
        <button type="button" className="button button--quiet" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <p className="loading" role="status">
        Loading the citation styles…
      </p>
    </dialog>
  );
}

export interface CiteButtonProps {
  readonly deployment: Deployment;
  readonly records: readonly ApiRecord[];
  /** Button text: "Cite" on a record, "Cite selected" in the selection bar. */
  readonly label?: string;
  readonly className?: string;
  readonly bibtexPrefix?: string;
  /** Which of the records are generated demo data (the dialog says so, BibTeX notes it). */
  readonly generated?: GeneratedIds;
}

/** A button that opens the Cite dialog for some records. */
export function CiteButton({
  deployment,
  records,
  label = 'Cite',
  className = 'button',
  bibtexPrefix,
  generated = noGeneratedIds,
}: CiteButtonProps) {
  const [open, setOpen] = useState(false);
  // The dialog joins the document on first use, so a page of results holds no idle dialogs.
  const [used, setUsed] = useState(false);
  return (
    <>
      <button
        type="button"
        className={className}
        aria-haspopup="dialog"
        disabled={records.length === 0}
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        {label}
      </button>
      {used && (
        <Suspense fallback={open ? <LoadingDialog onClose={() => setOpen(false)} /> : null}>
          <CiteDialog
            deployment={deployment}
            records={records}
            generated={generated}
            open={open}
            onClose={() => setOpen(false)}
            bibtexPrefix={bibtexPrefix}
          />
        </Suspense>
      )}
    </>
  );
}
