import { cleanup } from '@testing-library/react';
import { afterEach, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the records server (src/server/http/dom-server.test-support.ts). */
    recordsServer: string;
  }
}

// A page resolves a path against its origin; Node's fetch has none, so the app's own files
// (`/csl/apa.csl`) are asked of the records server, which serves public/ as the page's host would.
const nodeFetch = globalThis.fetch;
globalThis.fetch = (input, init) =>
  nodeFetch(typeof input === 'string' && input.startsWith('/') ? new URL(input, inject('recordsServer')) : input, init);

// jsdom has no modal dialogs: enough of one for the app's dialogs (Chromium's own is tested end to end).
const dialog = HTMLDialogElement.prototype;
if (!('showModal' in dialog)) {
  Object.assign(dialog, {
    showModal(this: HTMLDialogElement) {
      this.open = true;
    },
    close(this: HTMLDialogElement) {
      if (!this.open) return;
      this.open = false;
      this.dispatchEvent(new Event('close'));
    },
  });
}

// jsdom lays nothing out, so it has no media queries: every query matches (the wide layout).
if (typeof (window as { matchMedia?: unknown }).matchMedia !== 'function') {
  Object.assign(window, {
    matchMedia: (query: string) =>
      ({
        matches: true,
        media: query,
        onchange: null,
        addEventListener: () => {},
        removeEventListener: () => {},
        addListener: () => {},
        removeListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList,
  });
}

// Vitest runs without globals, so Testing Library cannot register its own cleanup: each
// test starts from an empty document and empty storage.
afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});
