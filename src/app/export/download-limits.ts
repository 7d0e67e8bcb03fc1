/** Limits of a whole-result-set download, shown to the user before it starts. */

/** Most records one download writes: a file a spreadsheet or reference manager still opens. */
export const downloadCap = 100_000;

/** Waits before each retry of a failed page (three retries, then the download stops). */
export const retryDelays: readonly number[] = [1_000, 3_000, 9_000];
