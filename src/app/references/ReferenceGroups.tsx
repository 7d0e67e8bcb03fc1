import { formatNumber } from '../ui/format';
import { verdictGroups, type CheckSummary } from './check-summary';
import { ReferenceItem } from './ReferenceItem';

/** The checked references under Found, Probably and Not found. */
export function ReferenceGroups({ summary }: { summary: CheckSummary }) {
  return verdictGroups.map(({ verdict, title }) => {
    const list = summary.byVerdict.get(verdict)!;
    const headingId = `references-${verdict}`;
    return (
      <section key={verdict} className={`references-group references-group--${verdict}`} aria-labelledby={headingId}>
        <h2 id={headingId}>
          {title} ({formatNumber(list.length)})
        </h2>
        {list.length > 0 && (
          <ol className="references-list">
            {list.map((result) => (
              <ReferenceItem key={summary.positions.get(result)} result={result} />
            ))}
          </ol>
        )}
      </section>
    );
  });
}
