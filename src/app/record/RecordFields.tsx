import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { hasKnownValue } from '../../formats/known-values';
import { FieldValue } from './FieldValue';

/** The title is the page's heading; related identifiers are the Related works section. */
const shownElsewhere = new Set(['title', 'related_identifiers']);

/**
 * Every field the deployment defines, in its order, empty and unknown ones ("None", size 0)
 * left out. Links are actions elsewhere.
 */
export function RecordFields({ deployment, record }: { deployment: Deployment; record: ApiRecord }) {
  const shown = deployment.fields.filter(
    (field) => field.kind !== 'links' && !shownElsewhere.has(field.name) && hasKnownValue(field, record[field.name]),
  );
  return (
    <dl className="record-fields">
      {shown.map((field) => (
        <div key={field.name} className={`record-fields__item record-fields__item--${field.kind}`}>
          <dt>{field.label}</dt>
          <dd>
            <FieldValue deployment={deployment} field={field} value={record[field.name]} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
