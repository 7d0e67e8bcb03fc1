import { lazy, Suspense, useState } from 'react';
import type { Deployment } from '../../deployments/schema';

// Few people open it, so its text and the field list load when someone does, not with the page.
const QuerySyntaxList = lazy(() => import('./QuerySyntaxList').then((module) => ({ default: module.QuerySyntaxList })));

/** "Query syntax": the box's language and fields, behind a disclosure. */
export function QuerySyntaxHelp({ deployment, extensions }: { deployment: Deployment; extensions: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="syntax-help" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Query syntax</summary>
      {open && (
        <Suspense fallback={<p>Loading…</p>}>
          <QuerySyntaxList deployment={deployment} extensions={extensions} />
        </Suspense>
      )}
    </details>
  );
}
