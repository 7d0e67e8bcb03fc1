/** The subset of the Web Storage API the app's stores use (a fake in tests). */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The browser's storage of that kind, or undefined where the browser blocks site data (reading it then throws). */
export function webStorage(kind: 'localStorage' | 'sessionStorage'): KeyValueStorage | undefined {
  try {
    return globalThis[kind];
  } catch {
    return undefined;
  }
}
