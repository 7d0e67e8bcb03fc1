import { declineHelp, type CountJob } from '../facets/count-sharing';
import type { HelpWith } from '../store-worker';
import type { Slot } from './worker-slots';

/**
 * A worker counting a broad search's facets may be lent a free worker for half of the count
 * (count-sharing.ts). It is lent only while another stays free for lookups, and never
 * while the pool closes; otherwise the job is declined and its poster counts it at once,
 * never waiting for a helper that will not come. A lent worker is busy, though it holds no
 * job, until it says it is free again (worker-slots.ts).
 */
export function lendHelper(slots: readonly Slot[], from: Slot, job: CountJob, closing: boolean): void {
  const free = slots.filter((slot) => slot !== from && slot.ready && !slot.job && !slot.helping && !slot.move);
  if (free.length < 2 || closing) return declineHelp(job);
  free[0]!.helping = true;
  free[0]!.worker.postMessage({ help: job } satisfies HelpWith);
}
