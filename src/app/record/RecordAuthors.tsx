import { useId, useState } from 'react';
import type { Deployment } from '../../deployments/schema';
import { authorsShownFolded } from '../../formats/record-layout';
import type { RecordText } from '../../formats/record-text';
import { Person } from './Person';

/**
 * The record's authors under its title. A long list shows its first names and folds the
 * rest behind "and N more", a disclosure button that unfolds them in place: the button stays
 * (so keeps the focus) after the last name, and a live region says how many are shown.
 */
export function RecordAuthors({ deployment, authors }: { deployment: Deployment; authors: readonly RecordText[] }) {
  const [open, setOpen] = useState(false);
  const [said, setSaid] = useState('');
  const listId = useId();
  if (authors.length === 0) return null;
  const folded = authorsShownFolded(authors.length);
  const more = authors.length - folded;
  const toggle = () => {
    setOpen(!open);
    setSaid(open ? `${folded} of ${authors.length} authors shown.` : `All ${authors.length} authors shown.`);
  };
  return (
    <div className="record__authors">
      <ul id={listId} className="people" aria-label="Authors">
        {(open ? authors : authors.slice(0, folded)).map((raw, index) => (
          <li key={index}>
            <Person deployment={deployment} raw={raw} />
          </li>
        ))}
      </ul>
      {more > 0 && (
        <button
          type="button"
          className="button button--quiet record__more-authors"
          aria-expanded={open}
          aria-controls={listId}
          onClick={toggle}
        >
          {open ? (
            'Show fewer authors'
          ) : (
            <>
              and {more} more<span className="visually-hidden"> authors</span>
            </>
          )}
        </button>
      )}
      <span className="visually-hidden" role="status">
        {said}
      </span>
    </div>
  );
}
