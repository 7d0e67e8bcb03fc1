import { admissionOf, type CostBook, type Op } from '../admission';
import { currentClient } from '../client';
import type { RenderedBody } from '../../render/rendered-body';

/** A request to the pool's workers, from when it is asked until a worker answers it. */
export interface Job {
  readonly op: Op;
  /** Who asked (client.ts): searches are shared fairly between clients (scheduler.ts). */
  readonly client: string;
  readonly args: unknown[];
  /** Not a lookup (admission.ts): it waits in the scheduler and runs under the time budget. */
  readonly search: boolean;
  /** A search that runs without the time budget (admission.ts `unbudgeted`). */
  readonly unbudgeted: boolean;
  readonly kind: string;
  /**
   * Milliseconds, as its kind has cost so far (admission.ts), and whether that is dear: read
   * when asked, so a search waits by what its kind costs now, not by one slow run of it
   * measured in a busy moment before it came.
   */
  readonly cost: number;
  readonly dear: boolean;
  /** A page of many records (admission.ts): dear by its size, whatever its kind's price. */
  readonly bulk: boolean;
  /** When it was queued (performance.now()). */
  readonly queued: number;
  started?: number;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

/** The job of `op` asked now, by the client of the request being handled, priced by `costs`. */
export function jobOf(op: Op, args: unknown[], costs: CostBook, resolve: (value: unknown) => void, reject: (error: Error) => void): Job {
  const admission = admissionOf(op, args);
  return {
    op,
    args,
    client: currentClient(),
    search: !admission.lookup,
    unbudgeted: admission.unbudgeted === true,
    kind: admission.kind,
    get cost() {
      return costs.priceOf(admission);
    },
    get dear() {
      return costs.isDear(admission);
    },
    bulk: admission.bulk === true,
    queued: performance.now(),
    resolve,
    reject,
  };
}

/** A body rendered by a worker arrives as the bytes of the Buffer it was (a Uint8Array). */
export function bodyOf(page: RenderedBody): RenderedBody {
  const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { body, encoded } = page;
  return { ...page, body: buffer(body), ...(encoded && { encoded: { ...encoded, body: buffer(encoded.body) } }) };
}
