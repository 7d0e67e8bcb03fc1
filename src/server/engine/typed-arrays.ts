type Growable = Int32Array | Uint32Array | Uint8Array;

/** A typed array of the same kind, twice as long, beginning with `array`'s entries: how the engine's buffers grow. */
export function doubled<T extends Growable>(array: T): T {
  const grown = new (array.constructor as new (length: number) => T)(array.length * 2);
  grown.set(array);
  return grown;
}
