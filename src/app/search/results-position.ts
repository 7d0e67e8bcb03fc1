import { useEffect, useRef } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router';
import { z } from 'zod';
import { readNavigationState } from '../navigation/navigation-state';
import { persistent } from '../ui/persistent-store';
import { webStorage } from '../ui/web-storage';

/**
 * Where the reader was in the results when they opened a record: the record, how far from the
 * top of the screen its link was, and the scroll position, so "Back to results" (or the
 * browser's Back) shows the record where it was, its link focused. One slot in sessionStorage:
 * only the last opening matters.
 */

const storageKey = 'records-explorer:results-position';
const positionSchema = z.object({
  search: z.string(),
  scrollY: z.number(),
  repoId: z.string(),
  /** The link's distance from the top of the screen; absent in a position kept before it was. */
  linkTop: z.number().optional(),
});

type Position = z.infer<typeof positionSchema>;

const kept = () =>
  persistent<Position | undefined>({ storage: webStorage('sessionStorage'), key: storageKey, schema: positionSchema, empty: undefined });

/** The `data-` attribute that names a result's title link by its record. */
export const resultLinkAttribute = 'data-result-link';

const resultLink = (repoId: string) => document.querySelector<HTMLElement>(`[${resultLinkAttribute}="${CSS.escape(repoId)}"]`);

/** Without storage the results open at the top, as before. */
export function rememberResultsPosition(search: string, repoId: string): void {
  const linkTop = resultLink(repoId)?.getBoundingClientRect().top;
  kept().set({ search, scrollY: window.scrollY, repoId, ...(linkTop === undefined ? {} : { linkTop }) });
}

function readPosition(search: string) {
  const position = kept().kept().value;
  return position?.search === search ? position : undefined;
}

/**
 * How far the page must scroll for the record's link to be where it was on screen. Parts of
 * the page above it may load in a different order than the first time (the filter column, a
 * work's versions): placing the link, not the page, shows the reader what they left.
 */
function distanceToPlace(link: HTMLElement | null, position: Position): number {
  if (link?.isConnected && position.linkTop !== undefined) return link.getBoundingClientRect().top - position.linkTop;
  return position.scrollY - window.scrollY;
}

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
    const link = resultLink(position.repoId);
    link?.focus({ preventScroll: true });
    // The page may be tall enough to scroll there only a few frames later: keep placing the
    // link until it is, for up to a second. Afterwards the browser's scroll anchoring keeps it.
    let frames = 0;
    const place = () => {
      const distance = distanceToPlace(link, position);
      if (Math.abs(distance) <= 1) return;
      window.scrollBy(0, distance);
      if (++frames < 60) requestAnimationFrame(place);
    };
    place();
  }, [ready, comingBack, location.key, location.search]);
}
