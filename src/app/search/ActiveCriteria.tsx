import { useNavigate } from 'react-router';
import { queryString } from '../../client/urls';
import type { Deployment } from '../../deployments/schema';
import { activeCriteria } from './active-criteria';
import { withValues, type Entries } from './query-params';

/**
 * The search's filters as chips, each removable, and "Clear all": a refined search reads at
 * a glance without opening the advanced form. Removing one is a new search (page 1); focus
 * then goes to the results heading, which announces the new count.
 */
export function ActiveCriteria({ deployment, entries }: { deployment: Deployment; entries: Entries }) {
  const navigate = useNavigate();
  const chips = activeCriteria(deployment, entries);
  if (chips.length === 0) return null;
  const without = (params: readonly string[]) =>
    void navigate(`/${deployment.slug}${queryString(withValues(entries, Object.fromEntries([...params, 'page'].map((name) => [name, undefined]))))}`);
  return (
    <section className="chips" aria-label="Active filters">
      <ul className="chips__list">
        {chips.map((chip) => (
          <li key={chip.params.join()} className="chip">
            <span>{chip.label}</span>
            <button type="button" className="chip__remove" aria-label={`Remove ${chip.label}`} onClick={() => without(chip.params)}>
              ×
            </button>
          </li>
        ))}
      </ul>
      {chips.length > 1 && (
        <button type="button" className="button button--quiet" onClick={() => without(chips.flatMap((chip) => chip.params))}>
          Clear all filters
        </button>
      )}
    </section>
  );
}
