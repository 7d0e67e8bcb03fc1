import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { firstKnown } from '../../formats/known-values';
import { roleValue } from '../../formats/record-roles';
import { plainLine } from '../../formats/record-text';
import { bareDoi } from '../../formats/text';
import { recordPath } from '../navigation/record-path';
import { firstText, formatDate } from './format';
import { GeneratedBadge } from './GeneratedNotice';
import { RichText } from './RichText';

interface WorkVersionsProps {
  readonly deployment: Deployment;
  /** The work's leading record, shown as the result. */
  readonly record: ApiRecord;
  /** Its other versions, in rank order. */
  readonly versions: readonly ApiRecord[];
  readonly generated: ReadonlySet<string>;
}

/**
 * "N versions" under a result that stands for several records of one work: a disclosure
 * button listing the other versions, each a link to its record with what tells it apart
 * (its date, DOI and identifier).
 */
export function WorkVersions({ deployment, record, versions, generated }: WorkVersionsProps) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  if (versions.length === 0) return null;
  const leading = firstText(roleValue(deployment, record, 'title'));
  const title = leading ? plainLine(leading) : 'this work';
  return (
    <div className="work-versions">
      <button
        type="button"
        className="button button--quiet work-versions__toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true" className="work-versions__marker">
          {open ? '▾' : '▸'}
        </span>
        {versions.length + 1} versions
        <span className="visually-hidden"> of this work</span>
      </button>
      <ul id={listId} className="work-versions__list" hidden={!open} aria-label={`Other versions of ${title}`}>
        {versions.map((version) => (
          <VersionItem key={version.repo_id} deployment={deployment} version={version} generated={generated.has(version.repo_id)} />
        ))}
      </ul>
    </div>
  );
}

function VersionItem({ deployment, version, generated }: { deployment: Deployment; version: ApiRecord; generated: boolean }) {
  const published = firstText(roleValue(deployment, version, 'published'));
  const date = published ? formatDate(published) : undefined;
  const doi = firstKnown(roleValue(deployment, version, 'doi'));
  return (
    <li className="work-versions__item">
      <Link to={recordPath(deployment, version.repo_id)}>
        <RichText text={firstText(roleValue(deployment, version, 'title')) ?? 'Untitled record'} inline />
      </Link>
      <span className="work-versions__meta">
        {date && <time dateTime={date.iso}>{date.text}</time>}
        {doi && <span>DOI {bareDoi(doi)}</span>}
        <span>Record {version.repo_id}</span>
        {generated && <GeneratedBadge />}
      </span>
    </li>
  );
}
