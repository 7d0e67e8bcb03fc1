import { useId, useState } from 'react';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import type { GeneratedIds } from '../../formats/generated-mark';
import { saveBlob } from '../ui/save-blob';
import { exportFormats, exportFormatSchema, type ExportFormatId } from './export-formats';

export interface ExportSelectionProps {
  readonly deployment: Deployment;
  readonly records: readonly ApiRecord[];
  /** Which of the records the catalog generated (marked as such in the file). */
  readonly generated: GeneratedIds;
}

/** A format and "Export selected": the selected records as one file, written in the browser. */
export function ExportSelection({ deployment, records, generated }: ExportSelectionProps) {
  const formatId = useId();
  const [format, setFormat] = useState<ExportFormatId>('bibtex');

  async function exportSelected() {
    // The codecs load on first export, keeping them out of the results page's first load.
    const { exportSelection } = await import('./selection-export');
    const file = exportSelection(deployment, records, format, { bom: format === 'csv', generated });
    saveBlob(file.blob, file.fileName);
  }

  return (
    <div className="selection-bar__export">
      <label htmlFor={formatId}>Export format</label>
      <select
        id={formatId}
        value={format}
        onChange={(event) => {
          const parsed = exportFormatSchema.safeParse(event.target.value);
          if (parsed.success) setFormat(parsed.data);
        }}
      >
        {exportFormats.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </select>
      <button type="button" className="button" aria-label="Export selected" onClick={() => void exportSelected()}>
        Export<span className="selection-bar__long"> selected</span>
      </button>
    </div>
  );
}
