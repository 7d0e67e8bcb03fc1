/** Values the e2e global setup provides to the tests (`inject('baseUrl')`). */
declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the server under test, without a trailing slash. */
    baseUrl: string;
  }
}

export {};
