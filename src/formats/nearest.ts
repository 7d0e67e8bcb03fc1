/**
 * Edit distance with a swap of two neighbouring letters counted once (optimal string
 * alignment), for suggesting the name a typo meant: the server's parameters and facets,
 * the search box's fields.
 */
export function editDistance(a: string, b: string): number {
  let before = Array.from({ length: b.length + 1 }, (_, j) => j);
  let previous = before;
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

export function nearest(name: string, candidates: readonly string[]): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate);
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  // Further than this the "suggestion" would be noise.
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.candidate : undefined;
}
