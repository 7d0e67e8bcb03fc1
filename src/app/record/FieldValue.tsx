import type { FieldDef } from '../../deployments/schema';
import { isHttpUrl, valuesOf } from '../../formats/text';
import { formatDate, formatNumber } from '../ui/format';

/** A field's value as text; never as HTML, and only http(s) URLs become links. */
export function FieldValue({ field, value }: { field: FieldDef; value: unknown }) {
  const items = valuesOf(value).filter((item) => item.trim() !== '');
  const one = (item: string) => {
    switch (field.kind) {
      case 'date': {
        const date = formatDate(item);
        return date.iso ? <time dateTime={date.iso}>{date.text}</time> : item;
      }
      case 'number':
        return typeof value === 'number' ? formatNumber(value) : item;
      case 'url':
        return isHttpUrl(item) ? <a href={item}>{item}</a> : item;
      default:
        // A value that is nothing but a web address (a DOI resolver URL, say) is worth following.
        return /^\S+$/.test(item) && isHttpUrl(item) ? <a href={item}>{item}</a> : item;
    }
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
