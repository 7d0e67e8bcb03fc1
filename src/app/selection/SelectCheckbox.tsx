import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { plainLine } from '../../formats/record-text';
import { firstText } from '../ui/format';
import { maxSelection } from './selection-store';
import './selection.css';
import { useSelection } from './use-selection';

export interface SelectCheckboxProps {
  readonly deployment: Deployment;
  /** The record as the search results hold it; it is kept with the selection. */
  readonly record: ApiRecord;
  /** The server says it is a generated demo record: citing and exporting the selection say so. */
  readonly generated?: boolean;
}

/** A checkbox named "Select <title>" that adds a record to the selection or removes it. */
export function SelectCheckbox({ deployment, record, generated = false }: SelectCheckboxProps) {
  const selection = useSelection(deployment);
  const selected = selection.isSelected(record.repo_id);
  const title = plainLine(firstText(record.title) ?? `record ${record.repo_id}`);
  const refused = selection.full && !selected;
  return (
    <label
      className="select-checkbox"
      title={refused ? `The selection is full (${maxSelection.toLocaleString('en')} records).` : undefined}
    >
      <input
        type="checkbox"
        checked={selected}
        disabled={refused}
        onChange={(event) => selection.toggle(record, event.target.checked, generated)}
      />
      <span className="visually-hidden">Select {title}</span>
    </label>
  );
}
