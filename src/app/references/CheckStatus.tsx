import { deploymentByKey, displayName } from '../../deployments/registry';
import { formatNumber } from '../ui/format';
import { plural, type CheckSummary, type Run } from './check-summary';
import { maxReferencesPerRun } from './reference-input';

export interface CheckStatusProps {
  readonly run: Run;
  readonly summary: CheckSummary;
  readonly message: string | undefined;
  readonly leftOut: number;
  readonly kept: boolean;
}

/** How the run stands: its error, its status line and progress, and what was left out or not asked. */
export function CheckStatus({ run, summary, message, leftOut, kept }: CheckStatusProps) {
  return (
    <>
      {message && (
        <p role="alert" className="field__error">
          {message}
        </p>
      )}
      <p role="status" className="references-status">
        {summary.status}
      </p>
      {run.state === 'checking' && (
        <progress className="references-progress" max={run.total} value={summary.finished.length} aria-label="References checked" />
      )}
      {leftOut > 0 && (
        <p className="notice">
          Only the first {formatNumber(maxReferencesPerRun)} references are checked in one run; {plural(leftOut, 'more reference')} were
          left out. Check them in another run.
        </p>
      )}
      {[...summary.unreachable].map(([catalog, { count, message: reason }]) => (
        <p key={catalog} className="notice">
          {displayName(deploymentByKey(catalog)!)} could not be asked about {plural(count, 'reference')}: {reason} Those references may be
          in it.
        </p>
      ))}
      {!kept && <p className="references-note">These results are too large to keep after a reload.</p>}
    </>
  );
}
