/**
 * A map from numbers to arrays of strings packed for another thread: every array's strings one
 * after the other in UTF-8, in the keys' order, and each string's length in bytes, so one key's
 * strings are read without decoding the rest.
 */
export interface PackedMap {
  readonly packedMap: Uint8Array;
  readonly byteLengths: Int32Array;
  readonly keys: Float64Array;
  /** How many strings each key's array holds. */
  readonly counts: Int32Array;
}

/** Where each key's strings start among all the strings, and each string's bytes in the text: running sums, ending with the totals. */
function runningSums(counts: Int32Array): Int32Array {
  const sums = new Int32Array(counts.length + 1);
  for (let i = 0; i < counts.length; i++) sums[i + 1] = sums[i]! + counts[i]!;
  return sums;
}

/** Where each key is in `keys`, in the keys' numeric order (none where they are in order already). */
function keyOrder(keys: Float64Array): Int32Array | undefined {
  for (let i = 1; i < keys.length; i++)
    if (keys[i - 1]! >= keys[i]!) return Int32Array.from(keys.keys()).sort((a, b) => keys[a]! - keys[b]!);
  return undefined;
}

/**
 * A packed map read where it lies: `get` and `has` find one key's strings in the packed text,
 * and only iterating or changing the map makes every array. A facet's spellings (the variants
 * of tens of thousands of author names at a million records) are read a page at a time, and
 * making every array first was most of a worker's first facets request.
 */
export class PackedLists extends Map<number, readonly string[]> {
  private read?: { text: Buffer; order: Int32Array | undefined; firstString: Int32Array; byteAt: Int32Array };
  private filled = false;

  constructor(private readonly packed: PackedMap) {
    super();
  }

  /** Its packed form, to hand on as it came, while nothing has made its arrays (nor, then, changed them). */
  get packedAsRead(): PackedMap | undefined {
    return this.filled ? undefined : this.packed;
  }

  override get(key: number): readonly string[] | undefined {
    if (this.filled) return super.get(key);
    const at = this.indexOf(key);
    return at === undefined ? undefined : this.stringsAt(at);
  }

  override has(key: number): boolean {
    return this.filled ? super.has(key) : this.indexOf(key) !== undefined;
  }

  override get size(): number {
    return this.filled ? super.size : this.packed.keys.length;
  }

  override set(key: number, value: readonly string[]): this {
    this.fill();
    return super.set(key, value);
  }

  override delete(key: number): boolean {
    this.fill();
    return super.delete(key);
  }

  override clear(): void {
    this.filled = true;
    super.clear();
  }

  override forEach(
    callback: (value: readonly string[], key: number, map: Map<number, readonly string[]>) => void,
    thisArg?: unknown,
  ): void {
    this.fill();
    super.forEach(callback, thisArg);
  }

  override entries() {
    this.fill();
    return super.entries();
  }

  override keys() {
    this.fill();
    return super.keys();
  }

  override values() {
    this.fill();
    return super.values();
  }

  override [Symbol.iterator]() {
    return this.entries();
  }

  private fill(): void {
    if (this.filled) return;
    const { keys } = this.packed;
    for (let at = 0; at < keys.length; at++) super.set(keys[at]!, this.stringsAt(at));
    this.filled = true;
    this.read = undefined;
  }

  private reading() {
    if (!this.read) {
      const { packedMap, byteLengths, keys, counts } = this.packed;
      this.read = {
        text: Buffer.from(packedMap.buffer, packedMap.byteOffset, packedMap.byteLength),
        order: keyOrder(keys),
        firstString: runningSums(counts),
        byteAt: runningSums(byteLengths),
      };
    }
    return this.read;
  }

  private indexOf(key: number): number | undefined {
    const { keys } = this.packed;
    const { order } = this.reading();
    let [low, high] = [0, keys.length];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (keys[order ? order[middle]! : middle]! < key) low = middle + 1;
      else high = middle;
    }
    const at = order ? order[low] : low;
    return at !== undefined && keys[at] === key ? at : undefined;
  }

  private stringsAt(at: number): string[] {
    const { text, firstString, byteAt } = this.reading();
    const strings: string[] = [];
    for (let s = firstString[at]!; s < firstString[at + 1]!; s++) strings.push(text.toString('utf8', byteAt[s], byteAt[s + 1]));
    return strings;
  }
}
