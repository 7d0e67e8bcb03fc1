import { z } from 'zod';
import { webStorage } from '../ui/web-storage';

/**
 * The colour theme: the system's, or one the user chose, kept in localStorage. public/theme.js
 * reads the same key before the first paint; the choice is the `data-theme` attribute the
 * theme's CSS reads.
 */

export const themes = ['system', 'light', 'dark'] as const;
export const themeSchema = z.enum(themes);
export type Theme = z.infer<typeof themeSchema>;

export const themeStorageKey = 'records-explorer:theme';

export function readTheme(): Theme {
  try {
    return themeSchema.catch('system').parse(webStorage('localStorage')?.getItem(themeStorageKey));
  } catch {
    return 'system';
  }
}

export function applyTheme(theme: Theme): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  try {
    if (theme === 'system') webStorage('localStorage')?.removeItem(themeStorageKey);
    else webStorage('localStorage')?.setItem(themeStorageKey, theme);
  } catch {
    // Storage blocked: the choice lasts until the page is left.
  }
}
