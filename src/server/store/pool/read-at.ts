import { readSync } from 'node:fs';
import { sharedBytes } from '../part-memory';

/**
 * What a part's chunk is read through on its way to shared memory. Memory the kernel's read
 * was the first to write to is slow to touch afterwards, each page once (on a virtual machine
 * at least); copied in from a buffer already touched, it is not, so the first facets request
 * does not pay for every page of the facet codes. One per thread, made on first use.
 */
let through: Buffer | undefined;
const throughBytes = 1 << 20;

/** Fills `buffer` from `position` on, less where the file ends: the number of bytes read. */
function readInto(fd: number, buffer: Buffer, position: number): number {
  let read = 0;
  while (read < buffer.length) {
    const n = readSync(fd, buffer, read, buffer.length - read, position + read);
    if (n === 0) break;
    read += n;
  }
  return read;
}

/** Reads exactly `length` bytes at `position` (into shared memory if `shared`), or fewer where the file ends. */
export function readAt(fd: number, length: number, position: number, shared = false): Buffer {
  if (!shared) {
    const buffer = Buffer.allocUnsafe(length);
    return buffer.subarray(0, readInto(fd, buffer, position));
  }
  const buffer = Buffer.from(sharedBytes(length).buffer, 0, length);
  through ??= Buffer.alloc(throughBytes);
  let read = 0;
  while (read < length) {
    const wanted = Math.min(throughBytes, length - read);
    const n = readInto(fd, through.subarray(0, wanted), position + read);
    through.copy(buffer, read, 0, n);
    read += n;
    if (n < wanted) break;
  }
  return buffer.subarray(0, read);
}
