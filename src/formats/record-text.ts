import { toPlainLine } from './rich-text';
import { knownValues } from './known-values';

/**
 * A record field's text as the server sent it — entities and markup not yet read. It is
 * opaque on purpose: React cannot render it and it is not a string, so the only ways out are
 * the text model's renderer (app/ui/RichText), `plainLine` (decoded, for titles, labels and
 * attributes) and `storedText` (as stored, for sending back to the API). Showing a field
 * without the text model is a type error, not a review finding.
 */
declare const recordTextBrand: unique symbol;
export interface RecordText {
  readonly [recordTextBrand]: 'record text';
}

const brand = (text: string) => text as unknown as RecordText;

/** Text that came from records by another way (a facet's value, counted from the records' fields). */
export const asRecordText = (text: string): RecordText => brand(text);

/** The texts of a field's value (a list or a scalar), without blanks and upstream placeholders ("None"). */
export function recordTexts(value: unknown): RecordText[] {
  return knownValues(value).map(brand);
}

/** The first non-empty text of a field. */
export function firstRecordText(value: unknown): RecordText | undefined {
  return recordTexts(value)[0];
}

/** The value exactly as stored: for the API (a search or a facet selection for it), never for people. */
export function storedText(text: RecordText | string): string {
  return text as unknown as string;
}

/** Decoded, markup gone, on one line: document titles, labels, attributes. */
export function plainLine(text: RecordText | string): string {
  return toPlainLine(storedText(text));
}
