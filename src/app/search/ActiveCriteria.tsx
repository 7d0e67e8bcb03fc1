import { useNavigate } from 'react-router';
import { queryString } from '../../client/urls';
import type { Deployment } from '../../deployments/schema';
import { plainLine } from '../../formats/record-text';
import { RichText } from '../ui/RichText';
import { activeCriteria, yearChips, type Chip } from './active-criteria';
import { withValues, type Entries } from '../navigation/query-params';

/**
 * The search's filters as chips, each removable, and "Clear all": a refined search reads at
 * a glance without opening the advanced form. Removing one is a new search (page 1); focus
 * then goes to the results heading, which announces the new count. Where the server reads
 * a year in the box as a year of publication (`extensions`: the local server), it says so
 * in a chip whose button makes it a word only.
 */
export function ActiveCriteria({ deployment, entries, extensions }: { deployment: Deployment; entries: Entries; extensions: boolean }) {
  const navigate = useNavigate();
  const filters = activeCriteria(deployment, entries);
  const chips = [...(extensions ? yearChips(deployment, entries) : []), ...filters];
  if (chips.length === 0) return null;
  const rewritten = (name: string, value: string) => {
    const kept = entries.map(([entry, old]): [string, string] => [entry, entry === name ? value : old]);
    void navigate(`/${deployment.slug}${queryString(withValues(kept, { page: undefined }))}`);
  };
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
            {chip.rewrite ? (
              <button type="button" className="chip__rewrite" onClick={() => rewritten(chip.params[0]!, chip.rewrite!.value)}>
                Only the word {chip.rewrite.word}
              </button>
            ) : (
              <button type="button" className="chip__remove" aria-label={`Remove ${plainLine(chip.label)}`} onClick={() => without([chip])}>
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {filters.length > 1 && (
        <button type="button" className="button button--quiet" onClick={() => without(filters)}>
          Clear all filters
        </button>
      )}
    </section>
  );
}
