/**
 * What a pool does besides answering, held back until its first searches are answered: the
 * workers started past the first few (worker-slots.ts), and its reader's parts after the facet
 * values (the dates, type-ahead tables and vocabularies: facet-reader.ts). On two cores each is
 * CPU the first answers of a restarted server would wait for, up to the last byte sent. It goes
 * ahead, once, as soon as a search has to wait for a worker (more workers are wanted now), a
 * part it holds back is asked for, the pool has answered a search and stayed idle a moment
 * (`quietMs`: its answers are still being written and sent), or at the latest a while after
 * the pool opened (`releaseAfter`).
 */
export class HeldBackWork {
  private latest: NodeJS.Timeout | undefined;
  private quietFor: NodeJS.Timeout | undefined;
  private released = false;

  constructor(
    private readonly work: () => void,
    private readonly quietMs = 100,
  ) {}

  /** Goes ahead `latestMs` from now at the latest (the pool has opened). */
  releaseAfter(latestMs: number): void {
    if (this.released) return;
    this.latest = setTimeout(() => this.release(), latestMs);
    this.latest.unref();
  }

  /** The pool is idle, having answered a search (`true`), or has work again. */
  idle(idle: boolean): void {
    if (this.released || idle === (this.quietFor !== undefined)) return;
    if (!idle) {
      clearTimeout(this.quietFor);
      this.quietFor = undefined;
      return;
    }
    this.quietFor = setTimeout(() => this.release(), this.quietMs);
    this.quietFor.unref();
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    clearTimeout(this.latest);
    clearTimeout(this.quietFor);
    this.work();
  }
}
