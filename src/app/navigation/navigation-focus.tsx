import { createContext, useContext, useEffect, useState, type ReactNode, type RefObject } from 'react';
import { useLocation } from 'react-router';
import { readNavigationState } from './navigation-state';

/**
 * Focus after client-side navigation. A single-page app does not reload, so screen readers
 * and keyboard users would stay on the link they followed; we move focus to the new view's
 * heading instead — but not on the first load, where the browser's own start is right.
 */

const HasNavigatedContext = createContext(false);

export function NavigationFocusProvider({ children }: { children: ReactNode }) {
  const location = useLocation();
  const [firstKey] = useState(location.key);
  return <HasNavigatedContext.Provider value={location.key !== firstKey}>{children}</HasNavigatedContext.Provider>;
}

export function useFocusOnNavigation(target: RefObject<HTMLElement | null>): void {
  const location = useLocation();
  const hasNavigated = useContext(HasNavigatedContext);
  const keepFocus = readNavigationState(location.state).keepFocus === true;
  useEffect(() => {
    if (hasNavigated && !keepFocus) target.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new location moves focus, not a re-render.
  }, [location.key]);
}

/** Sets the document title, which screen readers announce on navigation. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} – Records Explorer`;
  }, [title]);
}
