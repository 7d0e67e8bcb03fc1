import { useId } from 'react';
import { useNavigate } from 'react-router';
import { queryString } from '../../client/urls';
import { paramByName } from '../../deployments/registry';
import type { Deployment, IntegerParam } from '../../deployments/schema';
import { integerChoices, sortChoices } from './param-options';
import { firstValues, withValues, type Entries } from '../navigation/query-params';

/**
 * Sort order and page size beside the result count, where a researcher looks for them; a
 * change is a new search from page 1 (the advanced form holds the same two controls).
 */
export function ResultsHeader({ deployment, entries }: { deployment: Deployment; entries: Entries }) {
  const navigate = useNavigate();
  const sortId = useId();
  const rowsId = useId();
  const values = firstValues(entries);
  const rows = paramByName(deployment, 'rows') as IntegerParam | undefined;
  const change = (name: string, value: string) =>
    void navigate(
      `/${deployment.slug}${queryString(withValues(entries, { [name]: value || undefined, page: undefined, ...(name === 'sort' ? { order: undefined } : {}) }))}`,
    );
  return (
    <div className="results__settings">
      <label htmlFor={sortId}>Sort by</label>
      <select id={sortId} value={values.sort ?? ''} onChange={(event) => change('sort', event.target.value)}>
        {sortChoices(deployment, values.sort ?? '').map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      {rows && (
        <>
          <label htmlFor={rowsId}>Per page</label>
          <select id={rowsId} value={values.rows ?? String(rows.default)} onChange={(event) => change('rows', event.target.value)}>
            {integerChoices(rows, values.rows ?? '').map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </>
      )}
    </div>
  );
}
