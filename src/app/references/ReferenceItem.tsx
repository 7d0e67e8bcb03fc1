import { memo } from 'react';
import { Link } from 'react-router';
import { deploymentByKey, displayName } from '../../deployments/registry';
import { firstRecordText } from '../../formats/record-text';
import { recordPath } from '../navigation/record-path';
import { GeneratedBadge } from '../ui/GeneratedNotice';
import { RichText } from '../ui/RichText';
import { describeFacts, type MatchAssessment } from './match-score';
import type { CatalogMatch, ReferenceResult } from './reference-lookup';

const verdictLabels: Record<MatchAssessment['verdict'], string> = {
  found: 'The same work',
  probable: 'Probably the same work: check',
  related: 'Another work',
  'not-found': 'Not the same work',
};

const list = (parts: readonly string[]) => parts.join(', ');

/** What the record is to the reference, and which parts agreed and which did not. */
function MatchFacts({ match }: { match: CatalogMatch }) {
  const { assessment } = match;
  const { matched, differed, close } = describeFacts(assessment.facts);
  return (
    <p className={`reference__assessment reference__assessment--${assessment.verdict}`}>
      <strong>{assessment.relation ?? verdictLabels[assessment.verdict]}</strong>
      {matched.length > 0 && <> · Same: {list(matched)}</>}
      {close.length > 0 && <> · Close: {list(close)}</>}
      {differed.length > 0 && <> · Differs: {list(differed)}</>}
    </p>
  );
}

const kindLabels = { doi: 'DOI', formatted: 'Formatted reference', bibtex: 'BibTeX', ris: 'RIS' } as const;

/** One checked reference: what was read from it, and the records that match it. */
export const ReferenceItem = memo(function ReferenceItem({ result }: { result: ReferenceResult }) {
  const { reference, failures } = result;
  // Beside the best match, other catalogs' records only where they too are found: a weaker one would be noise.
  const matches = result.matches.filter((match, index) => index === 0 || match.assessment.verdict === 'found');
  const facts = [
    kindLabels[reference.kind],
    reference.doi && reference.kind !== 'doi' ? `DOI ${reference.doi}` : undefined,
    reference.year !== undefined ? String(reference.year) : undefined,
    reference.surnames[0],
  ].filter(Boolean);
  const text = reference.text.length > 400 ? `${reference.text.slice(0, 400)}…` : reference.text;
  return (
    <li className="reference">
      <p className="reference__text">{text}</p>
      <p className="reference__facts">{facts.join(' · ')}</p>
      {matches.length > 0 && (
        <ul className="reference__matches">
          {matches.map((match) => {
            const deployment = deploymentByKey(match.catalog)!;
            const title = firstRecordText(match.record.title);
            return (
              <li key={match.catalog}>
                <span className="reference__catalog">{displayName(deployment)}:</span>{' '}
                <Link to={recordPath(deployment, match.record.repo_id)} aria-label={title ? undefined : `Record ${match.record.repo_id}`}>
                  {title ? <RichText text={title} inline /> : match.record.repo_id}
                </Link>{' '}
                {match.generated && <GeneratedBadge />}
                <MatchFacts match={match} />
              </li>
            );
          })}
        </ul>
      )}
      {reference.problem && <p className="reference__problem">{reference.problem}</p>}
      {matches.length === 0 && !reference.problem && (
        <p className="reference__none">
          {failures.length === 0
            ? 'No catalog holds a matching record.'
            : `No catalog that could be asked holds a matching record; not asked: ${failures.map((failure) => displayName(deploymentByKey(failure.catalog)!)).join(', ')}.`}
        </p>
      )}
    </li>
  );
});
