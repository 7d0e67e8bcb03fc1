import { Link } from 'react-router';
import { deployments, displayName } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { useAppConfig } from '../config/config-context';
import { recordPath } from '../navigation/record-path';
import { firstText } from '../ui/format';
import { RichText } from '../ui/RichText';
import { useRecordsInMirror } from './related-queries';

/**
 * Where a record id this catalog does not hold is held by another catalog of the mirror (a
 * DC1 id opened under the literature catalog, say), a link to it there. Announced when it
 * arrives, since it comes after the "not found" the page already said.
 */
export function RecordElsewhere({ deployment, repoId }: { deployment: Deployment; repoId: string }) {
  const config = useAppConfig();
  const catalogs = deployments
    .filter((other) => other.key !== deployment.key)
    .map((other) => ({ deployment: other, baseUrl: config.baseUrls[other.key], auth: config.auth[other.key] }));
  const { found } = useRecordsInMirror([repoId], catalogs);
  return (
    <div role="status">
      {found.length > 0 && (
        <>
          <p>A record with this identifier is in {found.length === 1 ? 'another catalog' : 'other catalogs'} of this mirror:</p>
          <ul>
            {found.map(({ deployment: other, record }) => (
              <li key={other.key}>
                <Link to={recordPath(other, record.repo_id)}>
                  <RichText text={firstText(record.title) ?? `Record ${record.repo_id}`} inline />
                </Link>{' '}
                in {displayName(other)}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
