import { statSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { deployments } from '../../deployments/registry';
import { answerOp, engineAnswers, type EngineAnswers, type EngineCalls, type EngineOp } from './engine-calls';
import type { QueryEngine, SharedPart } from './engine';
import { openEngine } from './sqlite/query-engine';
import { helpWith, type CountJob, type CountSharing } from './facets/count-sharing';
import type { SnapshotMove } from './sqlite/snapshot-move';
import { collectGarbage } from './pool/collect-garbage';
import { earlierWords, isKept, keepParts, keptParts, type KeptPlace, type PartsKeeper } from './pool/kept-parts';
import { earlierFacets, keptColumns } from './pool/earlier-facets';
import { packPart, unpackPart, type PackedPart } from './pool/packed-strings';

/**
 * One read-only connection per worker thread; answers the pool's requests in order. A thread
 * serves one generation after another (pool/threads.ts): `{ open }` opens a file, `{ close }`
 * closes it again, and the thread waits for the next.
 */

export type StoreRequest = { [K in EngineOp]: { id: number; op: K; args: Parameters<EngineCalls[K]> } }[EngineOp];

/** What the pool's reader worked out for every worker (facet values, type-ahead tables, vocabularies), for this worker to use. */
export interface AdoptShared {
  readonly adopt: PackedPart;
}

/** The pool's word to move this worker's snapshot off the write-ahead log (snapshot-move.ts), sent while it is idle. */
export interface MoveSnapshot {
  readonly moveSnapshot: true;
}

/** Another worker's half of a count, for this one to take if it is still there (count-sharing.ts). */
export interface HelpWith {
  readonly help: CountJob;
}

/** Opens a store on this thread (it has none open), as the pool's worker of `role`. */
export interface OpenStore {
  readonly open: WorkerSettings;
}

/** Closes this thread's store; it answers `{ closed }` and waits for another `{ open }`. */
export interface CloseStore {
  readonly close: true;
}

/** Everything the pool sends a worker thread. */
export type ToWorker = OpenStore | CloseStore | StoreRequest | AdoptShared | HelpWith | MoveSnapshot;

export type StoreReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; message: string }
  | { ready: true }
  // `kept`: read from what the reader of the same data kept (pool/kept-parts.ts), not made again.
  // `read`: how the facet columns were read, where they were (facets taken over from the generation before, or read whole).
  | { shared: PackedPart; kept: boolean; read?: string }
  // The reader has handed over every part.
  | { sharedAll: true }
  // A count this worker would share, for the pool to pass to a free worker; and a helper's word that it is free again.
  | HelpWith
  | { helped: boolean }
  | { moved: SnapshotMove }
  | { closed: true };

/** What the pool opens a worker with. */
export interface WorkerSettings {
  readonly path: string;
  /**
   * `search`: a worker that answers requests, warmed for searches only; the facet values
   * come from the pool's `facets` worker, which reads them once, hands them over on shared
   * memory, then the type-ahead tables and the vocabularies for suggestions, each as soon as
   * it is made, and closes the file again.
   */
  readonly role: 'search' | 'facets';
  /** Where the `facets` worker finds and keeps what it works out for the next generation of the same data (and a `search` worker learns whether it kept the ranks of repo_ids). */
  readonly keep?: KeptPlace;
  /** When a search worker asks another to count half of a broad search's facets (its `ask` goes through the pool). */
  readonly sharing?: Omit<CountSharing, 'ask'>;
  /** The `facets` worker waits after the facet values and ranks until the pool sets this to 1 (pool/held-back-work.ts). */
  readonly waitBeforeRest?: Int32Array;
}

let engine: QueryEngine | undefined;
let answers: EngineAnswers | undefined;
/** Type-ahead tables and vocabularies handed over and not yet unpacked: only the first type-ahead or suggestion needs them. */
let laterParts: PackedPart[] = [];

const reply = (message: StoreReply, transfer?: ArrayBuffer[]) => parentPort!.postMessage(message, transfer);

parentPort!.on('message', (message: ToWorker) => {
  if ('open' in message) open(message.open);
  else if ('close' in message) {
    engine?.close();
    engine = undefined;
    answers = undefined;
    laterParts = [];
    // What the generation built is garbage now; collected before the thread waits idle for the next one.
    collectGarbage();
    reply({ closed: true });
  } else if ('adopt' in message) adopt(message.adopt);
  else if ('moveSnapshot' in message) reply({ moved: moveSnapshot() });
  else if ('help' in message) reply({ helped: helpWith(message.help) });
  else answer(message);
});

/** Opens the file (an error here ends the thread, and the pool says the file cannot be read). */
function open(settings: WorkerSettings) {
  const sharing = settings.sharing && { ...settings.sharing, ask: (job: CountJob) => reply({ help: job }) };
  const before = settings.role === 'facets' ? fileOf(settings.path) : undefined;
  // A search worker's date columns come from the reader, read once for every worker (until then, ranges are read from their indexes).
  const datesHandedOver = settings.role === 'search';
  const opened = openEngine(settings.path, { snapshot: true, datesHandedOver, ...(sharing && { sharing }) });
  // The file opened, where no other was moved over the path meanwhile.
  if (settings.role === 'facets')
    return readAhead(opened, settings.keep, before === fileOf(settings.path) ? before : undefined, settings.waitBeforeRest);
  engine = opened;
  answers = engineAnswers(opened);
  // Before the first request rather than during it; the pool sends none before this says so.
  // Where the reader finds the ranks of repo_ids kept, it hands them over with the facet values.
  engine.warmSearch(!(settings.keep && isKept(settings.keep, opened.revision)));
  reply({ ready: true });
}

/**
 * The reader's work: facets first, as a server answers them as soon as they are here; then,
 * once the pool says so (after its first answers), the dates and each deployment's type-ahead
 * and suggestions, each handed over as soon as it is made (or read from what the reader of the
 * same data kept, kept-parts.ts).
 */
function readAhead(opened: QueryEngine, place: KeptPlace | undefined, file: string | undefined, waitBeforeRest?: Int32Array) {
  const keeping = place && opened.revision !== 'empty' ? place : undefined;
  const kept = keeping && keptParts(keeping, opened.revision);
  // After a write in place: the vocabularies of the revision before, to sample only what was written since.
  const earlier = keeping && file && !kept ? earlierWords(keeping, file) : undefined;
  // And its facet index, to take over rather than read every column again; read now, as facets come first.
  const before = keeping && file && !kept ? earlierFacets(keeping, file) : undefined;
  // Kept again after the kept facet values should the file be written anew.
  const columns = kept ? keptColumns(keeping, opened.revision) : undefined;
  const makers: (() => SharedPart)[] = [
    () => ({ facets: opened.sharedFacets(before) }),
    // Every search waits for the ranks where they are kept; until the dates come, a worker reads each range from its index.
    () => ({ ranks: opened.sharedRanks() }),
    () => ({ dates: opened.sharedDates() }),
    ...deployments.flatMap(({ key }) => [
      (): SharedPart => ({ completions: opened.sharedCompletions(key) }),
      (): SharedPart => ({ words: opened.sharedWords(key, earlier?.().get(key)) }),
    ]),
  ];
  const handed: PackedPart[] = [];
  let keeper: PartsKeeper | undefined;
  let keptFacets: PackedPart | undefined;
  for (const make of makers) {
    const read = kept?.next();
    const fromFile = read !== undefined && !read.done;
    let part: PackedPart;
    if (fromFile) part = read.value;
    else {
      // Parts made after kept facets are made from them.
      if (keptFacets) opened.adopt(unpackPart(keptFacets));
      keptFacets = undefined;
      part = packPart(make());
    }
    if (fromFile && 'facets' in part) keptFacets = part;
    const madeFacets = !fromFile && 'facets' in part;
    const how = madeFacets ? opened.facetsRead() : undefined;
    reply({ shared: part, kept: fromFile, ...(how && { read: how }) });
    // Kept again as soon as one part is missing from the file (a server stopped before its reader ended).
    if (!fromFile && keeping && !keeper) {
      keeper = keepParts(keeping, opened.revision, file);
      for (const earlier of handed) {
        keeper.add(earlier);
        const state = 'facets' in earlier ? columns?.take() : undefined;
        if (state) keeper.add(state);
      }
    }
    keeper?.add(part);
    // Kept right after the facet values, for the next generation's reader only (a restart steps over it).
    if (madeFacets) keeper?.add(packPart({ columns: opened.sharedColumns() }));
    if (!keeper) handed.push(part);
    // What making a part left behind (its working arrays, mostly outside the heap V8 sizes its
    // collections by, so none would come soon) is given back now, not while the next part is
    // made on top of it as searches start on the other threads.
    if (!fromFile && holdsAny(part)) collectGarbage();
    if ('ranks' in part && waitBeforeRest) Atomics.wait(waitBeforeRest, 0, 0);
  }
  // Closed before it says so: its snapshot would keep the served log from being emptied (pooled-store.ts).
  opened.close();
  columns?.close();
  keeper?.done();
  reply({ sharedAll: true });
}

const holdsAny = (part: PackedPart) => Object.values(part).some((made: ReadonlyMap<unknown, unknown>) => made.size > 0);

/** The file at `path` (its device, inode and birth, as a removed file's inode may be another's later), or undefined where none is. */
function fileOf(path: string): string | undefined {
  try {
    const { dev, ino, birthtimeMs } = statSync(path);
    return `${dev}:${ino}:${birthtimeMs}`;
  } catch {
    return undefined;
  }
}

function moveSnapshot(): SnapshotMove {
  try {
    return engine!.moveSnapshot();
  } catch {
    // The snapshot is kept (the log only waits longer); the next generation tries again.
    return 'changed';
  }
}

/** Facet values, ranks and date columns are taken at once (searches need them); the other parts when first asked for. */
function adopt(part: PackedPart) {
  if ('facets' in part || 'ranks' in part || 'dates' in part) engine!.adopt(unpackPart(part));
  else laterParts.push(part);
}

function adoptLaterParts() {
  for (const part of laterParts) engine!.adopt(unpackPart(part));
  laterParts = [];
}

/** The open engine's answers (engine-calls.ts, the same dispatcher as a store in one thread). */
function answersOpen(): EngineAnswers {
  if (!answers) throw new Error('no store is open on this worker');
  return answers;
}

function answer(request: StoreRequest) {
  try {
    if ((request.op === 'suggest' || request.op === 'complete') && laterParts.length) adoptLaterParts();
    type Rendered = { body: Buffer; encoded?: { body: Buffer } };
    const value = answerOp(answersOpen(), request.op, request.args) as
      ({ ids?: Int32Array; page?: Rendered } & Partial<Rendered>) | undefined;
    // An order's ids and a rendered body move to the main thread without a copy.
    const rendered = value?.page ?? value;
    const moved = [value?.ids, rendered?.body, rendered?.encoded?.body]
      .filter((part) => part !== undefined)
      .map((part) => part.buffer as ArrayBuffer);
    reply({ id: request.id, ok: true, value }, moved);
  } catch (error) {
    reply({ id: request.id, ok: false, message: (error as Error).message });
  }
}
