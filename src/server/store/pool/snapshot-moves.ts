import type { SnapshotMove } from '../sqlite/snapshot-move';
import type { MoveSnapshot } from '../store-worker';
import type { Slot } from './worker-slots';

/**
 * Moving the workers' pinned snapshots off the write-ahead log (sqlite/snapshot-move.ts), so
 * the log can be emptied: asked by the reloading store once a pool serves alone. A slot asked
 * to move takes no request until its worker has said how the move went.
 */

/** Ends a slot's move, if one was asked, with `moved`. */
export function settleMove(slot: Slot, moved: SnapshotMove): void {
  const move = slot.move;
  slot.move = undefined;
  move?.resolve(moved);
}

/** Sends each idle worker whose slot was asked to move its snapshot the word to do it. */
export function sendMoves(slots: readonly Slot[]): void {
  for (const slot of slots) {
    if (!slot.move || slot.move.sent || slot.job || !slot.ready || slot.helping) continue;
    slot.move.sent = true;
    slot.worker.postMessage({ moveSnapshot: true } satisfies MoveSnapshot);
  }
}

/**
 * Moves every worker's snapshot off the write-ahead log, one idle worker at a time (one
 * holding the file's lock at once: snapshot-move.ts), so the log can be emptied. Not before
 * the generation's reader has closed the file (`readerEnded`): the snapshot it makes the
 * type-ahead tables and vocabularies from pins the log as a worker's does.
 */
export async function moveSnapshots(
  slots: readonly Slot[],
  closing: () => boolean,
  dispatch: () => void,
  readerEnded: Promise<void>,
): Promise<SnapshotMove> {
  await readerEnded;
  let outcome: SnapshotMove = 'unpinned';
  for (const slot of slots) {
    if (closing()) return 'changed';
    const moved = await new Promise<SnapshotMove>((resolve) => {
      slot.move = { sent: false, resolve };
      dispatch();
    });
    if (moved === 'busy' || moved === 'changed') return moved;
    if (moved === 'moved') outcome = 'moved';
  }
  return outcome;
}
