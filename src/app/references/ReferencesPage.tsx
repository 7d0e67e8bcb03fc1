import { useRef } from 'react';
import { useDocumentTitle, useFocusOnNavigation } from '../navigation/navigation-focus';
import { summarizeCheck } from './check-summary';
import { CheckStatus } from './CheckStatus';
import { FoundActions, type FoundActionsProps } from './FoundActions';
import { ReferenceForm } from './ReferenceForm';
import { ReferenceGroups } from './ReferenceGroups';
import { useReferenceCheck } from './use-reference-check';
import './references.css';

export interface ReferencesPageProps {
  /** What the page offers for a catalog's found records (cite, select), composed by the route. */
  readonly catalogActions?: FoundActionsProps['catalogActions'];
}

/**
 * "Check my references": a pasted or opened reference list, each reference looked up in every
 * catalog, grouped into found, probably and not found. The list and the results stay in this
 * browser; only the catalogs' own APIs are asked.
 */
export function ReferencesPage({ catalogActions }: ReferencesPageProps) {
  useDocumentTitle('Check references');
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnNavigation(heading);
  const check = useReferenceCheck();
  const summary = summarizeCheck(check.results, check.run);

  return (
    <>
      <h1 className="page-title" ref={heading} tabIndex={-1}>
        Check references
      </h1>
      <p className="references-intro">
        Paste a reference list — DOIs, references as formatted in a paper (one per line or paragraph, numbered or not), BibTeX or RIS
        entries, in any mix — and see which works every catalog holds. The list stays in this browser; only the catalogs’ own servers are
        asked.
      </p>
      <ReferenceForm
        initialInput={check.storedInput}
        running={check.running}
        hasResults={check.results.length > 0}
        onCheck={(text, input) => void check.check(text, input)}
        onStop={check.stop}
        onClear={check.clear}
        onMessage={check.setMessage}
      />
      <CheckStatus run={check.run} summary={summary} message={check.message} leftOut={check.leftOut} kept={check.kept} />
      {summary.foundGroups.length > 0 && !check.running && (
        <FoundActions foundGroups={summary.foundGroups} catalogActions={catalogActions} />
      )}
      {summary.finished.length > 0 && <ReferenceGroups summary={summary} />}
    </>
  );
}
