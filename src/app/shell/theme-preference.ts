import { z } from 'zod';
import { persistent } from '../ui/persistent-store';
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

const kept = () =>
  persistent<Theme>({ storage: webStorage('localStorage'), key: themeStorageKey, schema: themeSchema, empty: 'system', text: true });

export function readTheme(): Theme {
  return kept().kept().value;
}

/** Shows a theme and keeps the choice (where storage is blocked, until the page is left). */
export function applyTheme(theme: Theme): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  kept().set(theme);
}
