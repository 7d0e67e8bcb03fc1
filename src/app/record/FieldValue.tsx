import type { ReactNode } from 'react';
import type { FieldDef, FieldKind } from '../../deployments/schema';
import { isHttpUrl, valuesOf } from '../../formats/text';
import { doiOf, formatDate, formatNumber, personOf } from '../ui/format';
import { RichText } from '../ui/RichText';

/** Plain text, or a link when the value is nothing but a web address (a DOI resolver URL, say). */
const textValue = (item: string): ReactNode => (/^\S+$/.test(item) && isHttpUrl(item) ? <a href={item}>{item}</a> : <RichText text={item} />);

/** How each field kind of the deployment table shows one item of its value (`value` is the whole value). */
const renderers: Readonly<Record<FieldKind, (item: string, value: unknown) => ReactNode>> = {
  text: textValue,
  list: textValue,
  links: textValue,
  date: (item) => {
    const date = formatDate(item);
    return date.iso ? <time dateTime={date.iso}>{date.text}</time> : item;
  },
  number: (item, value) => (typeof value === 'number' ? formatNumber(value) : item),
  url: (item) => (isHttpUrl(item) ? <a href={item}>{item}</a> : item),
};

/** A field's value through the text model (never innerHTML); only http(s) URLs become links. */
export function FieldValue({ field, value }: { field: FieldDef; value: unknown }) {
  const items = valuesOf(value).filter((item) => item.trim() !== '');
  if (field.name === 'authors') return <AuthorList authors={items} />;
  const one = (item: string) => {
    // Bare and resolver-URL DOIs alike: one link to the resolver, the DOI as its text.
    const doi = field.name === 'doi' ? doiOf(item) : undefined;
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
function AuthorList({ authors }: { authors: readonly string[] }) {
  if (authors.length === 1) return <Person raw={authors[0]!} />;
  return (
    <ul className="value-list people">
      {authors.map((raw, index) => (
        <li key={index}>
          <Person raw={raw} />
        </li>
      ))}
    </ul>
  );
}

function Person({ raw }: { raw: string }) {
  const person = personOf(raw);
  return (
    <span className="person">
      <span className="person__name">{person.name}</span>
      {(person.affiliation || person.orcid) && (
        <span className="person__details">
          {person.affiliation && <span className="person__affiliation">{person.affiliation}</span>}
          {person.orcid && (
            <span className="person__orcid">
              {person.orcid.url ? <a href={person.orcid.url}>ORCID {person.orcid.id}</a> : `ORCID ${person.orcid.id}`}
            </span>
          )}
        </span>
      )}
    </span>
  );
}
