import { useEffect, useRef } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router';
import { z } from 'zod';
import { readNavigationState } from '../navigation/navigation-state';
import { persistent } from '../ui/persistent-store';
import { webStorage } from '../ui/web-storage';

/**
 * Where the reader was in the results when they opened a record: the record, how far from the
 * top of the screen its link was, so "Back to results" (or the browser's Back) shows the record
 * where it was, its link focused. One slot in sessionStorage: only the last opening matters.
 * Where the record is no longer among the results, they open at the top.
 */

const storageKey = 'records-explorer:results-position';
const positionSchema = z.object({
  search: z.string(),
  repoId: z.string(),
  /** The link's distance from the top of the screen. */
  linkTop: z.number(),
});

type Position = z.infer<typeof positionSchema>;

const kept = () =>
  persistent<Position | undefined>({ storage: webStorage('sessionStorage'), key: storageKey, schema: positionSchema, empty: undefined });

/** The `data-` attribute that names a result's title link by its record. */
export const resultLinkAttribute = 'data-result-link';

const resultLink = (repoId: string) => document.querySelector<HTMLElement>(`[${resultLinkAttribute}="${CSS.escape(repoId)}"]`);

/** Without storage the results open at the top, as before. */
export function rememberResultsPosition(search: string, repoId: string): void {
  const link = resultLink(repoId);
  if (link) kept().set({ search, repoId, linkTop: link.getBoundingClientRect().top });
}

function readPosition(search: string) {
  const position = kept().kept().value;
  return position?.search === search ? position : undefined;
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
    if (!link) return;
    link.focus({ preventScroll: true });
    // Place the link, not the page: parts above it may lay out in another order than the first
    // time, or later (a work's versions, the filter column), and not every browser anchors
    // scrolling. It is placed again each time a box it lies in changes size (the results
    // column is as tall as its content for that), until the reader scrolls, types or points.
    const observer = new ResizeObserver(() => {
      if (link.isConnected) window.scrollBy(0, link.getBoundingClientRect().top - position.linkTop);
      else observer.disconnect();
    });
    for (let box = link.parentElement; box; box = box.parentElement) observer.observe(box);
    for (const type of ['wheel', 'keydown', 'pointerdown']) {
      addEventListener(type, () => observer.disconnect(), { once: true });
    }
  }, [ready, comingBack, location.key, location.search]);
}
