import type { Deployment } from '../../deployments/schema';
import { searchModel } from '../../deployments/search-model';

/**
 * The query language in a few lines (docs/design.md, "Query language"), and the fields of the
 * box's fielded syntax, listed from the deployment's compiled search model.
 */
export function QuerySyntaxList({ deployment, extensions }: { deployment: Deployment; extensions: boolean }) {
  const fields = searchModel(deployment).queryFields.filter((field) => extensions || field.target.kind !== 'extension');
  return (
    <>
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
        <li>
          Search one field: <code>plasma author:Fredrickson year:2010-2015 title:"solar cell"</code>
        </li>
      </ul>
      <p className="syntax-help__fields-title" id="syntax-help-fields">
        Fields of {deployment.name}
      </p>
      <ul className="syntax-help__fields" aria-labelledby="syntax-help-fields">
        {fields.map((field) => (
          <li key={field.name}>
            <code>{field.name}:</code> {field.label}
            {field.target.kind === 'date-range' && (
              <>
                {' '}
                (a year or years: <code>{field.name}:2010-2015</code>)
              </>
            )}
            {field.names.length > 1 && (
              <span className="syntax-help__aliases">
                {' '}
                — also{' '}
                {field.names
                  .filter((name) => name !== field.name)
                  .map((name) => `${name}:`)
                  .join(', ')}
              </span>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
