import type { MouseEvent, ReactNode } from 'react';

/**
 * A skip link that moves focus itself: following `#results` as a fragment would add a
 * history entry and, in some browsers, leave focus behind.
 */
export function SkipLink({ target, children }: { target: string; children: ReactNode }) {
  function onClick(event: MouseEvent<HTMLAnchorElement>) {
    const element = document.getElementById(target);
    if (!element) return;
    event.preventDefault();
    element.focus();
    element.scrollIntoView({ block: 'start' });
  }
  return (
    <a className="skip-link" href={`#${target}`} onClick={onClick}>
      {children}
    </a>
  );
}
