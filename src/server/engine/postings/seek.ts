/** The first index at or after `from` whose id is at least `id` (ids ascend). */
export function seek(ids: Int32Array, from: number, id: number): number {
  if (from >= ids.length || ids[from]! >= id) return from;
  // Galloping: lists walked together mostly advance by a few entries at a time.
  let step = 1;
  while (from + step < ids.length && ids[from + step]! < id) step *= 2;
  let low = from + (step >> 1) + 1;
  let high = Math.min(from + step + 1, ids.length);
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ids[middle]! < id) low = middle + 1;
    else high = middle;
  }
  return low;
}
