import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { detailFields } from '../../formats/record-layout';
import { FieldValue } from './FieldValue';

/**
 * The record's other fields after what the page leads with, in the search model's order
 * (identifiers and codes last), empty and unknown ones ("None", size 0) left out.
 */
export function RecordFields({ deployment, record }: { deployment: Deployment; record: ApiRecord }) {
  const shown = detailFields(deployment, record);
  if (shown.length === 0) return null;
  return (
    <section className="record__details" aria-labelledby="record-details">
      <h2 id="record-details">Details</h2>
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
    </section>
  );
}
