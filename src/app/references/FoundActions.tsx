import { useId, useState, type ReactNode } from 'react';
import { displayName, type ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import type { GeneratedIds } from '../../formats/generated-mark';
import { formatNumber } from '../ui/format';
import { saveBlob } from '../ui/save-blob';
import { plural } from './check-summary';
import { foundFile, foundFormats, type CatalogRecords, type FoundFormat } from './found-file';

export interface FoundActionsProps {
  readonly foundGroups: readonly CatalogRecords[];
  /** What the page offers for a catalog's found records (cite, select), composed by the route. */
  readonly catalogActions?: ((deployment: Deployment, records: readonly ApiRecord[], generated: GeneratedIds) => ReactNode) | undefined;
}

/** The found works: downloaded as one file, and each catalog's offered to cite or select. */
export function FoundActions({ foundGroups, catalogActions }: FoundActionsProps) {
  const [format, setFormat] = useState<FoundFormat>('bibtex');
  const formatId = useId();
  const works = foundGroups.reduce((sum, group) => sum + group.records.length, 0);
  const generated = foundGroups.reduce((sum, group) => sum + group.generated.size, 0);
  return (
    <section className="references-actions" aria-label="Found works">
      <div className="references-actions__download">
        <label htmlFor={formatId}>Format</label>
        <select
          id={formatId}
          value={format}
          onChange={(event) => {
            const chosen = foundFormats.find((option) => option.id === event.target.value);
            if (chosen) setFormat(chosen.id);
          }}
        >
          {foundFormats.map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button"
          onClick={() => {
            const { blob, fileName } = foundFile(foundGroups, format);
            saveBlob(blob, fileName);
          }}
        >
          Download found ({formatNumber(works)})
        </button>
        {generated > 0 && (
          <p className="references-actions__generated">
            {generated === works ? 'All' : `${formatNumber(generated)} of ${formatNumber(works)}`} are generated demo records; the file says
            so in each of their entries.
          </p>
        )}
      </div>
      {catalogActions &&
        foundGroups.map(({ deployment, records, generated }) => (
          <div key={deployment.key} className="references-actions__catalog">
            <span>
              {displayName(deployment)}: {plural(records.length, 'work')}
              {generated.size > 0 && ` (${formatNumber(generated.size)} generated demo)`}
            </span>
            {catalogActions(deployment, records, generated)}
          </div>
        ))}
    </section>
  );
}
