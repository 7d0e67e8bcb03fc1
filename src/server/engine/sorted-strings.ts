/** The first index of `sorted` (ascending by code units) whose string is not before `value`; `sorted.length` if none. */
export function firstNotBefore(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
