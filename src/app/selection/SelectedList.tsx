import { useRef } from 'react';
import { Link } from 'react-router';
import type { Deployment } from '../../deployments/schema';
import { plainLine } from '../../formats/record-text';
import { recordPath } from '../navigation/record-path';
import { firstText } from '../ui/format';
import { RichText } from '../ui/RichText';
import { useSelection } from './use-selection';

/**
 * The selected records, each with Remove. Removing moves focus to the next Remove button
 * (or the previous, or `onEmpty` when none is left), so keyboard users keep their place.
 */
export function SelectedList({ deployment, id, onEmpty }: { deployment: Deployment; id: string; onEmpty: () => void }) {
  const selection = useSelection(deployment);
  const list = useRef<HTMLOListElement>(null);

  function remove(repoId: string, index: number) {
    selection.remove(repoId);
    if (selection.count <= 1) {
      onEmpty();
      return;
    }
    // After React re-renders, the button now at this index (or the last one) takes focus.
    requestAnimationFrame(() => {
      const buttons = list.current?.querySelectorAll<HTMLButtonElement>('button');
      if (buttons && buttons.length > 0) buttons[Math.min(index, buttons.length - 1)]!.focus();
    });
  }

  return (
    <section id={id} className="selected-list" aria-label="Selected records">
      <ol ref={list}>
        {selection.records.map((record, index) => {
          const title = firstText(record.title) ?? `Record ${record.repo_id}`;
          return (
            <li key={record.repo_id}>
              <Link to={recordPath(deployment, record.repo_id)}>
                <RichText text={title} inline />
              </Link>
              <button type="button" className="button" onClick={() => remove(record.repo_id, index)}>
                Remove<span className="visually-hidden"> {plainLine(title)}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
