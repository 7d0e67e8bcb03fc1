/**
 * A defect in the input, found where the file and record are not known yet. The entry
 * points in `upstream.ts` add that context and rethrow it as an `ImportError`, so the
 * helpers stay free of bookkeeping and every message names the same things in one format.
 */
export class InputProblem extends Error {
  constructor(
    message: string,
    /** The upstream key (or XML element) that holds the bad value, once known. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'InputProblem';
  }
}

/** A short, printable rendering of an offending value for error messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
