import { Link } from 'react-router';
import type { ApiAuth } from '../../client/auth';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { authorNames, firstText } from '../ui/format';
import { RichText } from '../ui/RichText';
import { GeneratedBadge } from '../ui/GeneratedNotice';
import { recordPath } from '../navigation/record-path';
import { useSimilarRecords } from './record-queries';
import { similarQuery } from './similar-query';

/** "Similar records": the best matches for this record's title words and subjects. */
export function SimilarRecords({
  deployment,
  record,
  baseUrl,
  auth,
}: {
  deployment: Deployment;
  record: ApiRecord;
  baseUrl: string;
  auth: ApiAuth | undefined;
}) {
  const query = useSimilarRecords(deployment, baseUrl, record.repo_id, similarQuery(record), auth);
  // Similar records are an aside: while loading, on failure or when there are none, nothing is shown.
  if (!query.data || query.data.records.length === 0) return null;
  const { records, generated } = query.data;
  return (
    <section className="similar" aria-labelledby="similar-records">
      <h2 id="similar-records">Similar records</h2>
      <ul className="similar__list">
        {records.map((similar) => {
          const { names, more } = authorNames(similar.authors, 3);
          return (
            <li key={similar.repo_id}>
              <Link to={recordPath(deployment, similar.repo_id)}>
                <RichText text={firstText(similar.title) ?? 'Untitled record'} inline />
              </Link>
              {names.length > 0 && (
                <span className="similar__authors">
                  {names.join('; ')}
                  {more > 0 && ' et al.'}
                </span>
              )}
              {generated.has(similar.repo_id) && (
                <>
                  {' '}
                  <GeneratedBadge />
                </>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
