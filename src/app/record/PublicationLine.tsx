import { Fragment, type ReactNode } from 'react';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { publicationLine } from '../../formats/record-layout';
import { RichText } from '../ui/RichText';

/** Where and when the work appeared, as a reference writes it: "Journal 118(26), 2017, Publisher". */
export function PublicationLine({ deployment, record }: { deployment: Deployment; record: ApiRecord }) {
  const line = publicationLine(deployment, record);
  if (!line) return null;
  const parts: ReactNode[] = [];
  if (line.venue || line.numbering)
    parts.push(
      <>
        {line.venue && (
          <cite>
            <RichText text={line.venue} inline />
          </cite>
        )}
        {line.venue && line.numbering && ' '}
        {line.numbering}
      </>,
    );
  if (line.year !== undefined) parts.push(line.year);
  if (line.publisher) parts.push(line.publisher);
  return (
    <p className="record__publication">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && ', '}
          {part}
        </Fragment>
      ))}
    </p>
  );
}
