import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Deployment, FieldDef, FieldKind, SearchColumn } from '../../deployments/schema';
import { plainLine, recordTexts, type RecordText } from '../../formats/record-text';
import { isHttpUrl } from '../../formats/text';
import { formatDate, formatNumber } from '../ui/format';
import { RichText } from '../ui/RichText';
import { fieldSearchPath } from '../ui/search-links';

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
  const one = (item: RecordText) => {
    if (field.search && searchedColumns.has(field.search)) {
      return (
        <Link to={fieldSearchPath(deployment, field.name, plainLine(item))}>
          <RichText text={item} inline />
        </Link>
      );
    }
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
