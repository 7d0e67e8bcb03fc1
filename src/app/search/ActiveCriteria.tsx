import { useNavigate } from 'react-router';
import { queryString } from '../../client/urls';
import type { Deployment } from '../../deployments/schema';
import { plainLine } from '../../formats/record-text';
import { RichText } from '../ui/RichText';
import { activeCriteria, type Chip } from './active-criteria';
import { withValues, type Entries } from '../navigation/query-params';

/**
 * The search's filters as chips, each removable, and "Clear all": a refined search reads at
 * a glance without opening the advanced form. Removing one is a new search (page 1); focus
 * then goes to the results heading, which announces the new count.
 */
export function ActiveCriteria({ deployment, entries }: { deployment: Deployment; entries: Entries }) {
  const navigate = useNavigate();
  const chips = activeCriteria(deployment, entries);
  if (chips.length === 0) return null;
  const without = (removed: readonly Chip[]) => {
    // A chip of a repeatable parameter drops its own value only; any other drops its parameters.
    const dropped = (name: string, value: string) =>
      removed.some((chip) => chip.params.includes(name) && (chip.value === undefined || chip.value === value));
    const kept = entries.filter(([name, value]) => !dropped(name, value));
    void navigate(`/${deployment.slug}${queryString(withValues(kept, { page: undefined }))}`);
  };
  return (
    <section className="chips" aria-label="Active filters">
      <ul className="chips__list">
        {chips.map((chip) => (
          <li key={`${chip.params.join()}=${chip.value ?? ''}`} className="chip">
            {/* A criterion's value is often a record's text (a facet value, a journal from a record page). */}
            <span>
              <RichText text={chip.label} inline />
            </span>
            <button type="button" className="chip__remove" aria-label={`Remove ${plainLine(chip.label)}`} onClick={() => without([chip])}>
              ×
            </button>
          </li>
        ))}
      </ul>
      {chips.length > 1 && (
        <button type="button" className="button button--quiet" onClick={() => without(chips)}>
          Clear all filters
        </button>
      )}
    </section>
  );
}
