import { plainLine, type RecordText } from '../../formats/record-text';
import { doiOf } from '../../formats/text';
import type { LinkAction } from './link-actions';

/**
 * The record's DOI and typed links as clearly named actions. A non-web target is named but
 * not linked, and so is a generated record's made-up DOI, which resolves to nothing.
 */
export function RecordLinks({ actions, doi, generated }: { actions: readonly LinkAction[]; doi?: RecordText; generated: boolean }) {
  if (actions.length === 0 && !doi) return null;
  const resolvable = doi && doiOf(plainLine(doi));
  return (
    <ul className="record-actions" aria-label="Links">
      {doi && (
        <li>
          {resolvable && !generated ? (
            <a className="button" href={resolvable.url}>
              DOI {resolvable.doi}
            </a>
          ) : (
            <span className="record-actions__unavailable">DOI {resolvable?.doi ?? plainLine(doi)}</span>
          )}
        </li>
      )}
      {actions.map((action, index) => (
        <li key={`${action.rel}-${index}`}>
          {action.href ? (
            <a className="button" href={action.href}>
              {action.name}
            </a>
          ) : (
            <span className="record-actions__unavailable">
              {action.name}: <span className="visually-hidden">not a web address, </span>
              <code>{action.raw}</code>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
