import { Fragment, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { unapiId } from '../../formats/citation-meta';
import { coinsOf } from '../../formats/coins';
import { MarkedLine, RichText } from '../ui/RichText';
import { GeneratedBadge } from '../ui/GeneratedNotice';
import type { ApiRecord } from '../../deployments/registry';
import { fieldByName } from '../../deployments/registry';
import type { Deployment, FieldRole } from '../../deployments/schema';
import { filledRole, roleFields, roleValue } from '../../formats/record-roles';
import { readNavigationState, type NavigationState } from '../navigation/navigation-state';
import { authorNames, firstText, formatDate } from '../ui/format';
import { fieldSearchPath } from '../ui/search-links';
import { recordPath } from '../navigation/record-path';
import type { FieldTerms } from './highlight-terms';
import { rememberResultsPosition, resultLinkAttribute } from './results-position';

interface ResultItemProps {
  readonly deployment: Deployment;
  readonly record: ApiRecord;
  /** The search's words for each field, marked where they match. */
  readonly terms: FieldTerms;
  /** The record's selection control. */
  readonly select: ReactNode;
  /** The server says the record is a generated demo record (X-Generated-Records). */
  readonly generated?: boolean;
  /** The other versions of the record's work, where the page is grouped ("N versions"). */
  readonly versions?: ReactNode;
}

export function ResultItem({ deployment, record, terms, select, generated = false, versions }: ResultItemProps) {
  const location = useLocation();
  const from: NavigationState['from'] = { search: location.search, apiUrl: readNavigationState(location.state).apiUrl };
  const state: NavigationState = { from };
  // Which field is the title, the date or the venue is the search model's to say (record-roles.ts).
  const role = (name: FieldRole) => roleValue(deployment, record, name);
  // The words of the criteria that search the field a role's value came from.
  const termsOf = (field: string | undefined) => (field === undefined ? [] : (terms.get(field) ?? []));
  const roleTerms = (name: FieldRole) => termsOf(filledRole(deployment, record, name)?.field ?? roleFields(deployment, name)[0]);
  const title = firstText(role('title')) ?? 'Untitled record';
  const { names, more } = authorNames(role('authors'));
  const published = firstText(role('published'));
  const date = published ? formatDate(published) : undefined;
  const productType = firstText(role('productType'));
  // The journal, else (a video, say) the media type.
  const filled = filledRole(deployment, record, 'journal', 'mediaType');
  const venueField = filled && fieldByName(deployment, filled.field);
  const venue = filled && firstText(filled.value);
  const description = firstText(role('description'));
  const authorsField = roleFields(deployment, 'authors')[0];

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
          <RichText text={title} inline terms={roleTerms('title')} />
        </Link>
      </h3>
      {generated && (
        <p className="result__generated">
          <GeneratedBadge />
        </p>
      )}
      {names.length > 0 && (
        <p className="result__authors">
          {names.map((name, index) => (
            <Fragment key={index}>
              {index > 0 && '; '}
              <Link to={fieldSearchPath(deployment, authorsField!, name)} className="result__person">
                <MarkedLine text={name} terms={termsOf(authorsField)} />
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
            <RichText text={productType} inline terms={roleTerms('productType')} />
          </li>
        )}
        {venue && venueField && (
          <li>
            <span className="visually-hidden">{venueField.label}: </span>
            <RichText text={venue} inline terms={termsOf(filled.field)} />
          </li>
        )}
      </ul>
      {description && (
        <p className="result__description">
          <RichText text={description} snippet terms={roleTerms('description')} />
        </p>
      )}
      {versions}
      {/* COinS, for reference managers' multi-record capture; nothing to see. */}
      <span className="Z3988" title={coinsOf(deployment, record)} />
      <abbr className="unapi-id" title={unapiId(deployment, record.repo_id)} />
    </article>
  );
}
