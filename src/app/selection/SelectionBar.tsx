import { lazy, Suspense } from 'react';
import type { SelectionBarProps } from './SelectionBarBody';
import { useSelection } from './use-selection';
import './selection.css';

// Most visits select nothing, so the bar's code loads with the first selected record.
const SelectionBarBody = lazy(() => import('./SelectionBarBody').then((module) => ({ default: module.SelectionBarBody })));

/** The selected records of a deployment (SelectionBarBody), shown only while something is selected. */
export function SelectionBar(props: SelectionBarProps) {
  const selection = useSelection(props.deployment);
  if (selection.count === 0) return null;
  return (
    <Suspense fallback={null}>
      <SelectionBarBody {...props} />
    </Suspense>
  );
}
