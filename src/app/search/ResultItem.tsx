import { Fragment, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { unapiId } from '../../formats/citation-meta';
import { coinsOf } from '../../formats/coins';
import type { QueryTerm } from '../../formats/query-words';
import { RichText } from '../ui/RichText';
import type { ApiRecord } from '../../deployments/registry';
import { fieldByName } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { readNavigationState, type NavigationState } from '../navigation/navigation-state';
import { authorNames, firstText, formatDate } from '../ui/format';
import { fieldSearchPath } from '../ui/search-links';
import { recordPath } from '../navigation/record-path';
import { rememberResultsPosition, resultLinkAttribute } from './results-position';

/** The field shown as "journal or media type": whichever the deployment has and the record fills. */
const venueFields = ['journal_name', 'mime_type'] as const;

/** The search's words for the title and the description, marked where they match. */
export interface ResultTerms {
  readonly title: readonly QueryTerm[];
  readonly description: readonly QueryTerm[];
}

interface ResultItemProps {
  readonly deployment: Deployment;
  readonly record: ApiRecord;
  readonly terms: ResultTerms;
  /** The record's selection control. */
  readonly select: ReactNode;
}

export function ResultItem({ deployment, record, terms, select }: ResultItemProps) {
  const location = useLocation();
  const from: NavigationState['from'] = { search: location.search, apiUrl: readNavigationState(location.state).apiUrl };
  const state: NavigationState = { from };
  const title = firstText(record.title) ?? 'Untitled record';
  const { names, more } = authorNames(record.authors);
  const published = firstText(record.publication_date);
  const date = published ? formatDate(published) : undefined;
  const productType = firstText(record.product_type);
  const venueField = venueFields.map((name) => fieldByName(deployment, name)).find((field) => field && firstText(record[field.name]));
  const venue = venueField ? firstText(record[venueField.name]) : undefined;
  const description = firstText(record.description);

  return (
    <article className="result">
      {select}
      <h3 className="result__title">
        <Link
          to={recordPath(deployment, record.repo_id)}
          state={state}
          {...{ [resultLinkAttribute]: record.repo_id }}
          onClick={() => rememberResultsPosition(location.search, record.repo_id)}
        >
          <RichText text={title} inline terms={terms.title} />
        </Link>
      </h3>
      {names.length > 0 && (
        <p className="result__authors">
          {names.map((name, index) => (
            <Fragment key={index}>
              {index > 0 && '; '}
              <Link to={fieldSearchPath(deployment, 'authors', name)} className="result__person">
                {name}
              </Link>
            </Fragment>
          ))}
          {more > 0 && ` and ${more} more`}
        </p>
      )}
      <ul className="result__meta">
        {date && (
          <li>
            <time dateTime={date.iso}>{date.text}</time>
          </li>
        )}
        {productType && (
          <li>
            <RichText text={productType} inline />
          </li>
        )}
        {venue && venueField && (
          <li>
            <span className="visually-hidden">{venueField.label}: </span>
            <RichText text={venue} inline />
          </li>
        )}
      </ul>
      {description && (
        <p className="result__description">
          <RichText text={description} snippet terms={terms.description} />
        </p>
      )}
      {/* COinS, for reference managers' multi-record capture; nothing to see. */}
      <span className="Z3988" title={coinsOf(deployment, record)} />
      <abbr className="unapi-id" title={unapiId(deployment, record.repo_id)} />
    </article>
  );
}
