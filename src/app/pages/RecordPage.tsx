import { roleField, roleTexts } from '../../formats/record-layout';
import { plainLine, storedText } from '../../formats/record-text';
import { GeneratedNotice } from '../ui/GeneratedNotice';
import { useRef } from 'react';
import { Link, useLocation } from 'react-router';
import type { ApiAuth } from '../../client/auth';
import { ApiRequestError } from '../../client/errors';
import type { ApiRecord } from '../../deployments/registry';
import { displayName } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { useApiAuth, useBaseUrl } from '../config/config-context';
import { useDocumentTitle, useFocusOnNavigation } from '../navigation/navigation-focus';
import { readNavigationState, type NavigationState } from '../navigation/navigation-state';
import { CiteButton } from '../cite/CiteButton';
import { ExportRecordMenu } from '../export/ExportRecordMenu';
import { ErrorState } from '../ui/ErrorState';
import { firstText } from '../ui/format';
import { linkActions } from '../record/link-actions';
import { MediaPlayer } from '../record/MediaPlayer';
import { mediaFormatOf } from '../record/playable';
import { PublicationLine } from '../record/PublicationLine';
import { RecordAuthors } from '../record/RecordAuthors';
import { RecordElsewhere } from '../record/RecordElsewhere';
import { RecordFields } from '../record/RecordFields';
import { RecordLinks } from '../record/RecordLinks';
import { RichText } from '../ui/RichText';
import { RelatedWorks } from '../record/RelatedWorks';
import { SimilarRecords } from '../record/SimilarRecords';
import { useRecord } from '../record/record-queries';
import { useCitationMeta } from '../record/use-citation-meta';

export function RecordPage({ deployment, repoId }: { deployment: Deployment; repoId: string }) {
  const location = useLocation();
  const baseUrl = useBaseUrl(deployment);
  const auth = useApiAuth(deployment);
  const query = useRecord(deployment, baseUrl, repoId, auth);
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnNavigation(heading);
  const { from } = readNavigationState(location.state);

  const notFound = query.error instanceof ApiRequestError && query.error.status === 404 ? query.error : undefined;
  const title = query.data
    ? (roleTexts(deployment, query.data.record, 'title')[0] ?? 'Untitled record')
    : notFound
      ? 'Record not found'
      : query.isError
        ? 'The record could not be loaded'
        : 'Loading record…';
  useDocumentTitle(`${plainLine(title)} – ${displayName(deployment)}`);
  useCitationMeta(deployment, query.data?.record);

  const backState: NavigationState = { restore: true, ...(from?.apiUrl ? { apiUrl: from.apiUrl } : {}) };
  return (
    <article className="record" aria-busy={query.isPending}>
      {from && (
        <p className="record__back">
          <Link to={`/${deployment.slug}${from.search}`} state={backState}>
            Back to results
          </Link>
        </p>
      )}
      <p className="record__deployment">{displayName(deployment)}</p>
      {/* One heading element for every state, so focus placed on it survives loading. */}
      <h1 ref={heading} tabIndex={-1} className="record__title">
        <RichText text={title} inline />
      </h1>
      {notFound ? (
        <div className="error-state">
          <p>{notFound.apiError?.errorDescription ?? `No record matches the identifier ${repoId}.`}</p>
          <RecordElsewhere deployment={deployment} repoId={repoId} />
          <p>
            <Link to={`/${deployment.slug}`}>Search {displayName(deployment)}</Link>
          </p>
        </div>
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data ? (
        <RecordBody deployment={deployment} record={query.data.record} generated={query.data.generated} baseUrl={baseUrl} auth={auth} />
      ) : null}
    </article>
  );
}

interface RecordBodyProps {
  readonly deployment: Deployment;
  readonly record: ApiRecord;
  readonly generated: boolean;
  readonly baseUrl: string;
  readonly auth: ApiAuth | undefined;
}

/**
 * What a reader needs first: authors, the publication line, the abstract, the links and the
 * tools to cite and export; then related works and every other field, identifiers and codes
 * last. Which field is which comes from the deployment table's roles (formats/record-layout.ts).
 */
function RecordBody({ deployment, record, generated, baseUrl, auth }: RecordBodyProps) {
  const actions = linkActions(record.links);
  const media = actions.find((action) => action.rel === 'media' && action.href);
  const mimeType = firstText(record.mime_type);
  const format = mediaFormatOf(mimeType && storedText(mimeType));
  const abstract = roleTexts(deployment, record, 'description')[0];
  return (
    <>
      {generated && <GeneratedNotice />}
      <RecordAuthors deployment={deployment} authors={roleTexts(deployment, record, 'authors')} />
      <PublicationLine deployment={deployment} record={record} />
      {abstract && (
        <section className="record__abstract" aria-labelledby="record-abstract">
          <h2 id="record-abstract">{roleField(deployment, 'description')!.label}</h2>
          <div className="record__abstract-text">
            <RichText text={abstract} />
          </div>
        </section>
      )}
      <RecordLinks actions={actions} doi={roleTexts(deployment, record, 'doi')[0]} generated={generated} />
      <div className="record__tools">
        <CiteButton deployment={deployment} records={[record]} generated={generated ? new Set([record.repo_id]) : undefined} />
        <ExportRecordMenu deployment={deployment} record={record} baseUrl={baseUrl} auth={auth} generated={generated} />
      </div>
      {media?.href && format && <MediaPlayer href={media.href} format={format} title={plainLine(firstText(record.title) ?? 'media')} />}
      <RelatedWorks
        deployment={deployment}
        record={record}
        generated={generated}
        citeWork={(catalog, work) => <CiteButton deployment={catalog} records={[work]} label="Cite this work" />}
      />
      <RecordFields deployment={deployment} record={record} />
      <SimilarRecords deployment={deployment} record={record} baseUrl={baseUrl} auth={auth} />
    </>
  );
}
