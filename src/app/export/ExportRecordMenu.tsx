import { useEffect, useRef, useState } from 'react';
import type { ApiAuth } from '../../client/auth';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { ErrorState } from '../ui/ErrorState';
import { exportFormats, type ExportFormat } from './export-formats';
import { exportRecord } from './record-export';
import { saveBlob } from '../ui/save-blob';
import './export.css';

export interface ExportRecordMenuProps {
  readonly deployment: Deployment;
  readonly record: ApiRecord;
  /** The deployment's API base URL (useBaseUrl), for the server's BibTeX, XML and JSON. */
  readonly baseUrl: string;
  /** A private mirror's token (useApiAuth). */
  readonly auth?: ApiAuth | undefined;
  /** A generated demo record: files made in the browser say so. */
  readonly generated?: boolean;
}

type ExportState =
  | { status: 'idle' }
  | { status: 'busy'; format: ExportFormat }
  | { status: 'saved'; fileName: string }
  | { status: 'failed'; error: unknown };

/** "Export" on a record: a disclosure listing the six formats, each a download. */
export function ExportRecordMenu({ deployment, record, baseUrl, auth, generated = false }: ExportRecordMenuProps) {
  const menu = useRef<HTMLDetailsElement>(null);
  const controller = useRef<AbortController | undefined>(undefined);
  const [state, setState] = useState<ExportState>({ status: 'idle' });

  useEffect(() => () => controller.current?.abort(), []);

  async function download(format: ExportFormat) {
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setState({ status: 'busy', format });
    try {
      const file = await exportRecord({ deployment, baseUrl, record, format: format.id, generated, signal: abort.signal, auth });
      saveBlob(file.blob, file.fileName);
      setState({ status: 'saved', fileName: file.fileName });
      if (menu.current) menu.current.open = false;
    } catch (error) {
      if (!abort.signal.aborted) setState({ status: 'failed', error });
    }
  }

  return (
    <div className="export-menu">
      <details
        ref={menu}
        onKeyDown={(event) => {
          // Escape closes the list like any menu, and leaves focus on its button.
          if (event.key !== 'Escape' || !menu.current?.open) return;
          menu.current.open = false;
          menu.current.querySelector('summary')?.focus();
        }}
      >
        <summary className="button">Export</summary>
        <ul className="export-menu__list" aria-label="Export formats">
          {exportFormats.map((format) => (
            <li key={format.id}>
              <button
                type="button"
                className="button button--quiet"
                disabled={state.status === 'busy'}
                onClick={() => void download(format)}
              >
                {format.label} <span className="export-menu__extension">(.{format.extension})</span>
              </button>
            </li>
          ))}
        </ul>
      </details>
      <p role="status" className="export-menu__status">
        {state.status === 'busy' ? `Preparing ${state.format.label}…` : state.status === 'saved' ? `Saved ${state.fileName}` : ''}
      </p>
      {state.status === 'failed' && <ErrorState error={state.error} />}
    </div>
  );
}
