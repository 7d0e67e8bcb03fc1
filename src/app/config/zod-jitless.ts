import { z } from 'zod';

/**
 * zod compiles object parsers with `new Function` where it may, and finds out by trying
 * `new Function("")`. Under the app's Content-Security-Policy (no 'unsafe-eval') that try
 * is refused and reported as a CSP violation on every page, so zod is told not to try.
 * Imported before anything else: zod reads the setting when a schema is built.
 */
z.config({ jitless: true });
