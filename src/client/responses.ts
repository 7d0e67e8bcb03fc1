import { z } from 'zod';
import { apiErrorSchema, errorFromText, type ApiError } from '../formats/error';
import { firstElementText } from '../formats/text';
import type { ResponseFormat } from '../formats/media-types';
import { InvalidResponseError } from './errors';

/** A server's answer as the client reads it (http.ts getText). */
export interface AnswerHead {
  /** The URL that answered, after redirects. */
  readonly url: string;
  readonly headers: Headers;
}

export interface Answer extends AnswerHead {
  readonly text: string;
}

/** Reading answers: their format, their Error object, their JSON and their total. */

export const formatName: Record<ResponseFormat, string> = { json: 'JSON', xml: 'XML', bibtex: 'BibTeX' };

/**
 * Whether a Content-Type is the format asked for: a JSON or XML type (`text/xml`, `+json`
 * suffixes too), and BibTeX however servers label it. An answer without one is read and judged by its body.
 */
export function matchesFormat(contentType: string | null, format: ResponseFormat): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (!type) return true;
  if (format === 'json') return /[/+]json$/.test(type);
  if (format === 'xml') return /[/+]xml$/.test(type);
  return type.includes('bibtex') || type === 'text/plain';
}

function xmlElement(xml: string, name: string): string | undefined {
  return firstElementText(xml, name)
    ?.replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/**
 * The Error object of an error response, in whichever of the spec's three forms the server
 * chose (it should follow our Accept, but a proxy or another server may not), or undefined.
 */
export function parseApiError(body: string): ApiError | undefined {
  const text = body.trim();
  if (text.startsWith('{')) {
    try {
      const parsed = apiErrorSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }
  if (text.startsWith('<')) {
    const statusCode = Number(xmlElement(text, 'statusCode'));
    const statusMessage = xmlElement(text, 'statusMessage');
    const errorDescription = xmlElement(text, 'errorDescription');
    if (!Number.isInteger(statusCode) || statusMessage === undefined || errorDescription === undefined) return undefined;
    return { statusCode, statusMessage, errorDescription };
  }
  return errorFromText(text);
}

/** Parses a JSON body, naming what came instead when it is not JSON (an HTML page, say). */
export function parseJson(answer: Answer, url: string): unknown {
  try {
    return JSON.parse(answer.text);
  } catch {
    const type = answer.headers.get('Content-Type')?.split(';')[0]?.trim() || 'no content type';
    throw new InvalidResponseError(url, `expected JSON, received ${type}.`);
  }
}

const digits = /^\s*\d+\s*$/;

/**
 * X-Total-Count: the number of records the search finds, or undefined when the server
 * leaves it out. An unreadable one is undefined too, or with `strict` an InvalidResponseError.
 * A count beyond what a number holds exactly (10^21 records) is no count: unknown, so it
 * never enters a sum or a page count.
 */
export function readTotal(headers: Headers, url: string, options: { strict?: boolean } = {}): number | undefined {
  const header = headers.get('X-Total-Count');
  if (header === null) return undefined;
  if (digits.test(header)) {
    const total = Number(header);
    return Number.isSafeInteger(total) ? total : undefined;
  }
  if (options.strict) throw new InvalidResponseError(url, `X-Total-Count is "${header}", not a number.`);
  return undefined;
}

/** "record 3: authors: expected array, received string" from zod's first issue. */
export function describeIssue(issue: z.core.$ZodIssue, prefix: string): string {
  const path = issue.path.map(String);
  const message = issue.message.replace(/^Invalid input:\s*/i, '');
  return [prefix, ...(path.length ? [path.join('.')] : []), message].filter(Boolean).join(': ');
}
