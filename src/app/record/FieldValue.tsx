import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Deployment, FieldDef, FieldKind, SearchColumn } from '../../deployments/schema';
import { plainLine, recordTexts, type RecordText } from '../../formats/record-text';
import { isHttpUrl } from '../../formats/text';
import { doiOf, formatDate, formatNumber, personOf } from '../ui/format';
import { RichText } from '../ui/RichText';
import { fieldSearchPath, identifierSearchPath } from '../ui/search-links';

/** Fields whose values are people, subjects or organisations: each value is a search for itself. */
const searchedColumns = new Set<SearchColumn>(['subjects', 'research', 'sponsor', 'contributing']);

/** Plain text, or a link when the value is nothing but a web address (a DOI resolver URL, say). */
const textValue = (item: RecordText): ReactNode => {
  const url = plainLine(item);
  return /^\S+$/.test(url) && isHttpUrl(url) ? <a href={url}>{url}</a> : <RichText text={item} />;
};

/** How each field kind of the deployment table shows one item of its value (`value` is the whole value). */
const renderers: Readonly<Record<FieldKind, (item: RecordText, value: unknown) => ReactNode>> = {
  text: textValue,
  list: textValue,
  links: textValue,
  date: (item) => {
    const date = formatDate(item);
    return date.iso ? <time dateTime={date.iso}>{date.text}</time> : <RichText text={item} />;
  },
  number: (item, value) => (typeof value === 'number' ? formatNumber(value) : <RichText text={item} />),
  url: textValue,
};

/** A field's value through the text model (never innerHTML); only http(s) URLs become links. */
export function FieldValue({ deployment, field, value }: { deployment: Deployment; field: FieldDef; value: unknown }) {
  const items = recordTexts(value);
  if (field.name === 'authors') return <AuthorList deployment={deployment} authors={items} />;
  const one = (item: RecordText) => {
    if (field.search && searchedColumns.has(field.search)) {
      return (
        <Link to={fieldSearchPath(deployment, field.name, plainLine(item))}>
          <RichText text={item} inline />
        </Link>
      );
    }
    // Bare and resolver-URL DOIs alike: one link to the resolver, the DOI as its text.
    const doi = field.name === 'doi' ? doiOf(plainLine(item)) : undefined;
    if (doi) return <a href={doi.url}>{doi.doi}</a>;
    return renderers[field.kind](item, value);
  };
  if (items.length === 1) return <>{one(items[0]!)}</>;
  return (
    <ul className="value-list">
      {items.map((item, index) => (
        <li key={index}>{one(item)}</li>
      ))}
    </ul>
  );
}

/**
 * Authors as people: the name first (as the result list writes it), then the affiliation
 * and ORCID iD as quieter details, instead of the record's `Name [Org] (ORCID:…)` string.
 */
function AuthorList({ deployment, authors }: { deployment: Deployment; authors: readonly RecordText[] }) {
  if (authors.length === 1) return <Person deployment={deployment} raw={authors[0]!} />;
  return (
    <ul className="value-list people">
      {authors.map((raw, index) => (
        <li key={index}>
          <Person deployment={deployment} raw={raw} />
        </li>
      ))}
    </ul>
  );
}

function Person({ deployment, raw }: { deployment: Deployment; raw: RecordText }) {
  const person = personOf(raw);
  const orcidSearch = person.orcid?.url ? identifierSearchPath(deployment, person.orcid.id) : undefined;
  return (
    <span className="person">
      <span className="person__name">
        <Link to={fieldSearchPath(deployment, 'authors', person.name)}>{person.name}</Link>
      </span>
      {(person.affiliation || person.orcid) && (
        <span className="person__details">
          {person.affiliation && <span className="person__affiliation">{person.affiliation}</span>}
          {person.orcid && (
            <span className="person__orcid">
              {person.orcid.url ? <a href={person.orcid.url}>ORCID {person.orcid.id}</a> : `ORCID ${person.orcid.id}`}
              {orcidSearch && (
                <>
                  {' '}
                  <Link to={orcidSearch} className="person__orcid-search">
                    Records with this ORCID iD<span className="visually-hidden"> ({person.name})</span>
                  </Link>
                </>
              )}
            </span>
          )}
        </span>
      )}
    </span>
  );
}
