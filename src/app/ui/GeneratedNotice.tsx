import type { ApiRecord } from '../../deployments/registry';
import type { GeneratedIds } from '../../formats/generated-mark';

/** Said wherever a generated demo record could be read or cited as if it were real. */
export function GeneratedNotice() {
  return (
    <p className="notice generated-notice">
      <strong>Generated demo record.</strong> Its text and identifiers (DOI, ORCID iDs, report and patent numbers) are made up and resolve
      to nothing real; do not cite it.
    </p>
  );
}

/** Said above citations or exports of several records when some of them are generated demo records. */
export function GeneratedInSelection({ records, generated }: { records: readonly ApiRecord[]; generated: GeneratedIds }) {
  const count = records.filter((record) => generated.has(record.repo_id)).length;
  if (count === 0) return null;
  const summary =
    records.length === 1
      ? 'The selected record is a generated demo record.'
      : count === records.length
        ? `All ${records.length.toLocaleString('en')} records are generated demo records.`
        : `${count.toLocaleString('en')} of these ${records.length.toLocaleString('en')} records are generated demo records.`;
  return (
    <p className="notice generated-notice">
      <strong>{summary}</strong> Their text and identifiers are made up and resolve to nothing real; do not cite them. BibTeX, RIS and
      CSL-JSON files say so in a note on each.
    </p>
  );
}
