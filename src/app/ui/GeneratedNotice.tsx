import type { ApiRecord } from '../../deployments/registry';
import { generatedAmong, generatedLabel, type GeneratedIds } from '../../formats/generated-mark';
import { firstText } from './format';
import { RichText } from './RichText';

/** Said wherever a generated demo record could be read or cited as if it were real. */
export function GeneratedNotice() {
  return (
    <p className="notice generated-notice">
      <strong>Generated demo record.</strong> Its text and identifiers (DOI, ORCID iDs, report and patent numbers) are made up and resolve
      to nothing real; do not cite it.
    </p>
  );
}

/** Beside a record's title in a list: the one rule (generated-mark.ts) said where the record is. */
export function GeneratedBadge() {
  return <span className="generated-badge">{generatedLabel}</span>;
}

/** How many generated records a notice names by title; the rest are counted. */
const namedAtMost = 5;

/** Said above citations or exports of several records when some of them are generated demo records, naming which. */
export function GeneratedInSelection({ records, generated }: { records: readonly ApiRecord[]; generated: GeneratedIds }) {
  const among = generatedAmong(records, generated);
  const count = among.length;
  if (count === 0) return null;
  const summary =
    records.length === 1
      ? 'The selected record is a generated demo record.'
      : count === records.length
        ? `All ${records.length.toLocaleString('en')} records are generated demo records.`
        : `${count.toLocaleString('en')} of these ${records.length.toLocaleString('en')} records are generated demo records:`;
  const named = count < records.length ? among.slice(0, namedAtMost) : [];
  return (
    <div className="notice generated-notice">
      <p>
        <strong>{summary}</strong>
      </p>
      {named.length > 0 && (
        <ul className="generated-notice__records" aria-label="Generated demo records">
          {named.map((record) => (
            <li key={record.repo_id}>
              <RichText text={firstText(record.title) ?? `Record ${record.repo_id}`} inline />{' '}
              <span className="generated-notice__id">(ID {record.repo_id})</span>
            </li>
          ))}
          {count > named.length && <li>and {(count - named.length).toLocaleString('en')} more</li>}
        </ul>
      )}
      <p>
        Their text and identifiers are made up and resolve to nothing real; do not cite them. Every file and citation made of them says so
        on each.
      </p>
    </div>
  );
}
