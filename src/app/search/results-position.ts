import { useEffect, useRef } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router';
import { z } from 'zod';
import { readNavigationState } from '../navigation/navigation-state';
import { persistent } from '../ui/persistent-store';
import { webStorage } from '../ui/web-storage';

/**
 * Where the reader was in the results when they opened a record: the scroll position and
 * the record, so "Back to results" (or the browser's Back) returns to the same place with
 * focus on that record's link. One slot in sessionStorage: only the last opening matters.
 */

const storageKey = 'records-explorer:results-position';
const positionSchema = z.object({ search: z.string(), scrollY: z.number(), repoId: z.string() });

type Position = z.infer<typeof positionSchema>;

const kept = () =>
  persistent<Position | undefined>({ storage: webStorage('sessionStorage'), key: storageKey, schema: positionSchema, empty: undefined });

/** Without storage the results open at the top, as before. */
export function rememberResultsPosition(search: string, repoId: string): void {
  kept().set({ search, scrollY: window.scrollY, repoId });
}

function readPosition(search: string) {
  const position = kept().kept().value;
  return position?.search === search ? position : undefined;
}

/** The `data-` attribute that names a result's title link by its record. */
export const resultLinkAttribute = 'data-result-link';

/** Once the results are on screen after coming back, scrolls and focuses as they were left. */
export function useRestoreResultsPosition(ready: boolean): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const restoredFor = useRef<string | undefined>(undefined);
  const comingBack = readNavigationState(location.state).restore === true || navigationType === NavigationType.Pop;
  useEffect(() => {
    if (!ready || !comingBack || restoredFor.current === location.key) return;
    restoredFor.current = location.key;
    const position = readPosition(location.search);
    if (!position) return;
    const link = document.querySelector<HTMLElement>(`[${resultLinkAttribute}="${CSS.escape(position.repoId)}"]`);
    link?.focus({ preventScroll: true });
    // Parts of the page that load after the results (the filter column) may make it tall
    // enough only a few frames later: keep scrolling there until it is, for up to a second.
    let frames = 0;
    const scroll = () => {
      window.scrollTo(0, position.scrollY);
      if (Math.abs(window.scrollY - position.scrollY) > 1 && ++frames < 60) requestAnimationFrame(scroll);
    };
    scroll();
  }, [ready, comingBack, location.key, location.search]);
}
