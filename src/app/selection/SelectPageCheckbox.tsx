import { useEffect, useRef } from 'react';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import type { GeneratedIds } from '../../formats/generated-mark';
import './selection.css';
import { useSelection } from './use-selection';

/** "Select all on this page" (or `label`): ticked when all are selected, mixed when some are. */
export function SelectPageCheckbox({
  deployment,
  records,
  label = 'Select all on this page',
  generated,
}: {
  deployment: Deployment;
  records: readonly ApiRecord[];
  label?: string;
  /** Which of them are generated demo records (the page's X-Generated-Records). */
  generated?: GeneratedIds;
}) {
  const selection = useSelection(deployment);
  const input = useRef<HTMLInputElement>(null);
  const selectedHere = records.filter((record) => selection.isSelected(record.repo_id)).length;
  const all = records.length > 0 && selectedHere === records.length;
  const some = selectedHere > 0 && !all;
  useEffect(() => {
    // A property only (no attribute); assistive technology reads it as "mixed".
    if (input.current) input.current.indeterminate = some;
  });
  return (
    <label className="select-page">
      <span className="select-checkbox">
        <input ref={input} type="checkbox" checked={all} onChange={() => selection.setAll(records, !all, generated)} />
      </span>
      {label}
    </label>
  );
}
