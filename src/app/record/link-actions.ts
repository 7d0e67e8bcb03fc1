import { linkName } from '../../formats/record-layout';
import { isHttpUrl, valuesOf } from '../../formats/text';

/** The record's typed links as named actions; only http(s) targets may become links. */

export interface LinkAction {
  readonly rel: string;
  readonly name: string;
  /** Undefined when the server's target is not an http(s) URL. */
  readonly href: string | undefined;
  readonly raw: string;
}

export function linkActions(value: unknown): LinkAction[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((link): link is { rel: unknown; href: unknown } => typeof link === 'object' && link !== null)
    .map((link) => {
      const rel = valuesOf(link.rel)[0] ?? '';
      const raw = valuesOf(link.href)[0] ?? '';
      return {
        rel,
        name: linkName(rel),
        href: isHttpUrl(raw) ? raw : undefined,
        raw,
      };
    })
    .filter((action) => action.raw !== '');
}
