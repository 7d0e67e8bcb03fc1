import { lazy, Suspense, useState } from 'react';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { noGeneratedIds, type GeneratedIds } from '../../formats/generated-mark';

// The dialog (and, once it opens, the citation engine) loads on first use only.
const CiteDialog = lazy(() => import('./CiteDialog').then((module) => ({ default: module.CiteDialog })));

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
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        {label}
      </button>
      {used && (
        <Suspense fallback={null}>
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
