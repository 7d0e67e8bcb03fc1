/** Said wherever a generated demo record could be read or cited as if it were real. */
export function GeneratedNotice() {
  return (
    <p className="notice generated-notice">
      <strong>Generated demo record.</strong> Its text and identifiers (DOI, ORCID iDs, report and patent numbers) are made up and
      resolve to nothing real; do not cite it.
    </p>
  );
}
