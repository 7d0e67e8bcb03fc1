import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { deploymentByKey, displayName, type ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { relatedWorks, workAsRecord, type RelatedReference, type RelatedWork } from '../../formats/related-works';
import { doiOf, isHttpUrl } from '../../formats/text';
import { useApiAuth, useBaseUrl } from '../config/config-context';
import { firstText } from '../ui/format';
import { RichText } from '../ui/RichText';
import { GeneratedBadge } from '../ui/GeneratedNotice';
import { recordPath } from '../navigation/record-path';
import { useRecordsInMirror, type CatalogAccess, type FoundRecord } from './related-queries';

/** The catalog an upstream record id is looked for in besides the record's own: the literature catalog, where articles are. */
const articlesCatalog = deploymentByKey('LIT')!;

/**
 * "Related works": the record's related identifiers as typed relations (DataCite's, as
 * data): each work's identifier as a link (DOIs to their resolver), the upstream's curated
 * reference as a reader writes one, and the mirror's records that relate to the same work
 * as links to their pages. A work the upstream describes can be cited (`citeWork`, given by the
 * page, as a record of the articles catalog). A generated record's identifiers are made up:
 * shown, neither linked nor offered for citing.
 */
export function RelatedWorks({
  deployment,
  record,
  generated,
  citeWork,
}: {
  deployment: Deployment;
  record: ApiRecord;
  generated: boolean;
  citeWork?: (catalog: Deployment, work: ApiRecord) => ReactNode;
}) {
  const works = relatedWorks(record.related_identifiers, record.repo_id);
  const catalogs = useCatalogs(deployment);
  const ids = [...new Set(works.flatMap((work) => work.recordIds))];
  const inMirror = useRecordsInMirror(generated ? [] : ids, catalogs);
  if (works.length === 0) return null;
  return (
    <section className="related-works" aria-labelledby="related-works">
      <h2 id="related-works">Related works</h2>
      <ul className="related-works__list">
        {works.map((work, index) => (
          <li key={index} className="related-work">
            <span className="related-work__relation">{work.label}</span> <Identifier work={work} linked={!generated} />
            {work.reference && <Reference reference={work.reference} />}
            {!generated && citeWork && <CiteWork work={work} cite={citeWork} />}
            <MirrorRecords found={inMirror.found.filter((found) => work.recordIds.includes(found.record.repo_id))} />
          </li>
        ))}
      </ul>
      {inMirror.pending && <p className="loading">Looking for related records in this mirror…</p>}
    </section>
  );
}

function useCatalogs(deployment: Deployment): CatalogAccess[] {
  const own = { deployment, baseUrl: useBaseUrl(deployment), auth: useApiAuth(deployment) };
  const articles = { deployment: articlesCatalog, baseUrl: useBaseUrl(articlesCatalog), auth: useApiAuth(articlesCatalog) };
  return deployment.key === articlesCatalog.key ? [own] : [own, articles];
}

function Identifier({ work, linked }: { work: RelatedWork; linked: boolean }) {
  const doi = work.identifierType.toUpperCase() === 'DOI' ? doiOf(work.identifier) : undefined;
  if (linked && doi) return <a href={doi.url}>DOI {doi.doi}</a>;
  if (linked && isHttpUrl(work.identifier)) return <a href={work.identifier}>{work.identifier}</a>;
  return (
    <span>
      {work.identifierType} {work.identifier}
    </span>
  );
}

/** The curated reference as a reader writes one: authors, title, journal volume(issue), year. */
function Reference({ reference }: { reference: RelatedReference }) {
  const issue = reference.issue ? `(${reference.issue})` : '';
  const source = [reference.journal, reference.volume ? `${reference.volume}${issue}` : ''].filter(Boolean).join(' ');
  return (
    <p className="related-work__reference">
      {reference.authors && (
        <span>{reference.authorsTruncated ? `${reference.authors}; et al. ` : reference.authors.replace(/\.?$/, '. ')}</span>
      )}
      {reference.title && (
        <span className="related-work__title">
          <RichText text={reference.title} inline />.{' '}
        </span>
      )}
      {source && <cite>{source}</cite>}
      {reference.year !== undefined && <span> ({reference.year})</span>}
    </p>
  );
}

function CiteWork({ work, cite }: { work: RelatedWork; cite: (catalog: Deployment, work: ApiRecord) => ReactNode }) {
  const record = workAsRecord(work, articlesCatalog);
  return record ? <div className="related-work__cite">{cite(articlesCatalog, record)}</div> : null;
}

function MirrorRecords({ found }: { found: readonly FoundRecord[] }) {
  if (found.length === 0) return null;
  return (
    <ul className="related-work__records" aria-label="Related records in this mirror">
      {found.map(({ deployment, record, generated }) => (
        <li key={`${deployment.key}:${record.repo_id}`}>
          <Link to={recordPath(deployment, record.repo_id)}>
            <RichText text={firstText(record.title) ?? `Record ${record.repo_id}`} inline />
          </Link>{' '}
          <span className="related-work__catalog">({displayName(deployment)})</span>
          {generated && (
            <>
              {' '}
              <GeneratedBadge />
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
