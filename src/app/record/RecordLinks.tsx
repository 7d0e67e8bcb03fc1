import type { LinkAction } from './link-actions';

/** The typed links as clearly named actions; a non-web target is named but not linked. */
export function RecordLinks({ actions }: { actions: readonly LinkAction[] }) {
  if (actions.length === 0) return null;
  return (
    <ul className="record-actions" aria-label="Links">
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
