import { z } from 'zod';
import { escapeXml } from './text';

/** The spec's Error object. */
export const apiErrorSchema = z.object({
  statusCode: z.number().int(),
  statusMessage: z.string(),
  errorDescription: z.string(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const statusMessages: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  413: 'Payload Too Large',
  417: 'Expectation Failed',
  421: 'Misdirected Request',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
  500: 'Internal Error',
  503: 'Service Unavailable',
};

export function apiError(statusCode: number, errorDescription: string): ApiError {
  return { statusCode, statusMessage: statusMessages[statusCode] ?? 'Error', errorDescription };
}

export function errorToJson(error: ApiError): string {
  return JSON.stringify(error);
}

export function errorToXml(error: ApiError): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<error>' +
    `<statusCode>${error.statusCode}</statusCode>` +
    `<statusMessage>${escapeXml(error.statusMessage)}</statusMessage>` +
    `<errorDescription>${escapeXml(error.errorDescription)}</errorDescription>` +
    '</error>\n'
  );
}

/** BibTeX has no error form: the spec asks for three plain-text lines. */
export function errorToText(error: ApiError): string {
  const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');
  return `${error.statusCode}\n${oneLine(error.statusMessage)}\n${oneLine(error.errorDescription)}\n`;
}

/** Reads the three-line text form back (the app meets it when asking for BibTeX). */
export function errorFromText(text: string): ApiError | undefined {
  const [code, message, ...description] = text.trim().split(/\r?\n/);
  const statusCode = Number(code);
  if (!Number.isInteger(statusCode) || !message) return undefined;
  return { statusCode, statusMessage: message, errorDescription: description.join(' ') };
}
