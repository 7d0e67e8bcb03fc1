/** The query language in five lines (DESIGN.md, "Query language"). */
export function QuerySyntaxHelp() {
  return (
    <details className="syntax-help">
      <summary>Query syntax</summary>
      <ul>
        <li>
          All words must match: <code>solar cell</code>
        </li>
        <li>
          A phrase in quotes: <code>"solar cell"</code>
        </li>
        <li>
          Either word: <code>solar OR wind</code>; group with parentheses: <code>(solar OR wind) storage</code>
        </li>
        <li>
          Leave a word out: <code>solar NOT wind</code> or <code>solar -wind</code>
        </li>
        <li>
          Words starting with: <code>photo*</code>
        </li>
      </ul>
    </details>
  );
}
