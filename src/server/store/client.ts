import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who a store call is made for, so the worker pool can share its workers fairly between
 * clients (pool/scheduler.ts). The HTTP server names the client (its remote address) around
 * each request it handles; the call reaches the pool through the cache and the reloading
 * wrapper, which need not carry it, so it travels with the request's async context rather
 * than as a parameter of every store method.
 */
const current = new AsyncLocalStorage<string>();

/** Calls made outside any request (the CLI, warm-up, tests that name none) share this client. */
export const localClient = 'local';

/** Runs `work`, and every store call it makes, on behalf of `client`. */
export function asClient<T>(client: string, work: () => T): T {
  return current.run(client, work);
}

export function currentClient(): string {
  return current.getStore() ?? localClient;
}
