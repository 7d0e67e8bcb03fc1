import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockSize } from './block-postings';
import {
  appendedPositions,
  decodePositions,
  DocumentsJoiner,
  encodePositions,
  instanceStarts,
  joinedInstances,
  noInstances,
  PositionsWalk,
  postingsOf,
  StoredPositions,
  type DocumentInstances,
  type Instances,
} from './positions';

/**
 * The positions codec: every token's instances read back as written, whole or document by
 * document, by a walk that skips documents, across the parts a list and its tail are
 * stored in, and after a write joins and cuts them.
 */

type Documents = readonly (readonly [number, number][])[];

/**
 * Documents of 1–5 instances, sometimes many more, in 9 columns (the search columns), at
 * offsets small (a title's) and large (a full text's), over several blocks.
 */
const documents = fc.array(
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.array(fc.tuple(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 40 })), { minLength: 1, maxLength: 5 }),
    },
    {
      weight: 2,
      arbitrary: fc.array(fc.tuple(fc.integer({ min: 0, max: 8 }), fc.nat({ max: 2 ** 26 - 1 })), { minLength: 1, maxLength: 5 }),
    },
    { weight: 1, arbitrary: fc.array(fc.tuple(fc.constant(3), fc.nat({ max: 5000 })), { minLength: 1, maxLength: 300 }) },
  ),
  { minLength: 0, maxLength: 3 * blockSize + 5, size: 'max' }, // fast-check's default size would keep lists below one block
);

/** Each document's instances, each once, in (column, offset) order. */
const instancesOf = (docs: Documents): Documents =>
  docs.map((instances) =>
    [...new Map(instances.map(([column, offset]) => [`${column} ${offset}`, [column, offset] as [number, number]])).values()].sort(
      (a, b) => a[0] - b[0] || a[1] - b[1],
    ),
  );

const triplesOf = (docs: Documents) =>
  Int32Array.from(docs.flatMap((instances, doc) => instances.flatMap(([column, offset]) => [doc, column, offset])));

const flatOf = (docs: Documents): DocumentInstances => postingsOf(triplesOf(docs)).instances;

const documentsOf = ({ counts, columns, offsets }: DocumentInstances): Documents => {
  const starts = instanceStarts({ counts, columns, offsets });
  return Array.from(counts, (_, d) =>
    Array.from({ length: counts[d]! }, (__, i) => [columns[starts[d]! + i]!, offsets[starts[d]! + i]!] as [number, number]),
  );
};

/** A part as the store keeps it: the positions as written, read back. */
const partOf = (docs: Documents) => new StoredPositions(postingsOf(triplesOf(docs)).positions);

const seen = (into: Instances) => Array.from({ length: into.length }, (_, i) => [into.columns[i], into.offsets[i]]);

describe('the positions codec', () => {
  it("reads every document's instances back as written, whole and one at a time", () => {
    fc.assert(
      fc.property(documents, fc.nat(), (raw, seed) => {
        const docs = instancesOf(raw);
        const stored = partOf(docs);
        expect(stored.docs).toBe(docs.length);
        expect(documentsOf(decodePositions([stored]))).toEqual(docs);
        // Read the first few of each one at a time, then move on, as a walk that stops early does.
        const walk = new PositionsWalk({ parts: [stored], starts: [0] });
        docs.forEach((instances, d) => {
          expect(walk.doc).toBe(d);
          const n = walk.document();
          expect(n).toBe(instances.length);
          const read = (seed + d) % (n + 1);
          for (let k = 0; k < read; k++) {
            walk.instance();
            expect([walk.column, walk.offset]).toEqual(instances[k]);
          }
        });
      }),
    );
  });

  it('packs to the byte: a token in one document takes a few bytes, and a block of one-instance documents in one column no bits for their counts or columns', () => {
    // Format, documents, the block's instances, its widths in two bytes, then the offset's 6 bits in a byte.
    expect(postingsOf(Int32Array.from([7, 3, 57])).positions).toHaveLength(6);
    const titles = postingsOf(Int32Array.from({ length: 3 * blockSize }, (_, i) => (i % 3 === 0 ? i / 3 : i % 3 === 1 ? 0 : 2)));
    // The header (format, then documents, instances and widths in two bytes each) and 128 offsets of 2 bits.
    expect(titles.positions).toHaveLength(1 + 2 + 2 + 2 + (blockSize * 2) / 8);
  });

  it("packs a block's columns at the width of their rank among its columns, however far apart they stand", () => {
    // 128 one-instance documents at offset 2, in two columns taking turns.
    const alternating = (other: number) =>
      postingsOf(Int32Array.from(Array.from({ length: blockSize }, (_, doc) => [doc, (doc % 2) * other, 2]).flat())).positions;
    // The header (format, then documents, instances and widths in two bytes each), 128 columns of 1 bit and 128 offsets of 2 bits.
    const size = 1 + 2 + 2 + 2 + blockSize / 8 + (blockSize * 2) / 8;
    expect(alternating(1)).toHaveLength(size);
    // Title and full text, the first and last columns: one bit each still, not the four their places differ by.
    expect(alternating(8)).toHaveLength(size);
    expect(documentsOf(decodePositions([new StoredPositions(alternating(8))])).slice(0, 2)).toEqual([[[0, 2]], [[8, 2]]]);
  });

  it('refuses positions in another format', () => {
    const data = Buffer.from(postingsOf(Int32Array.from([0, 1, 2])).positions);
    data[0] = 9;
    expect(() => new StoredPositions(data)).toThrow(/format 9/);
  });
});

describe('a positions walk', () => {
  it('reads every document it stops at as one walk over one part does, whatever it skips and wherever the parts split', () => {
    fc.assert(
      fc.property(documents, fc.nat(), fc.array(fc.nat({ max: 2 * blockSize }), { maxLength: 30, size: 'max' }), (raw, cut, steps) => {
        const docs = instancesOf(raw);
        const split = cut % (docs.length + 1);
        const parts = [partOf(docs.slice(0, split)), partOf(docs.slice(split))];
        const walk = new PositionsWalk({ parts, starts: [0, split] });
        const into = noInstances();
        for (const step of steps) {
          const doc = walk.doc + step;
          if (doc >= docs.length) break;
          if (step === 1) walk.skip();
          else walk.skipTo(doc);
          walk.read(into);
          expect(seen(into)).toEqual(docs[doc]);
          expect(walk.doc).toBe(doc + 1);
        }
      }),
    );
  });

  it('reads the documents it jumps to far into their blocks as written, where another walk of the same kept part went first', () => {
    const stops = fc.uniqueArray(fc.nat({ max: 3 * blockSize + 4 }), { maxLength: 40, size: 'max' });
    fc.assert(
      fc.property(documents, stops, stops, (raw, first, second) => {
        const docs = instancesOf(raw);
        // One part walked twice, as a common token's kept positions are by one search after another.
        const part = partOf(docs);
        for (const stopsOfWalk of [first, second]) {
          const walk = new PositionsWalk({ parts: [part], starts: [0] });
          const into = noInstances();
          for (const doc of stopsOfWalk.filter((d) => d < docs.length).sort((a, b) => a - b)) {
            walk.skipTo(doc);
            walk.read(into);
            expect(seen(into)).toEqual(docs[doc]);
          }
        }
      }),
    );
  });

  it('reads a list and its tail, decoded together, as the list and the tail joined and written whole', () => {
    fc.assert(
      fc.property(documents, fc.nat(), (raw, cut) => {
        const docs = instancesOf(raw);
        const split = cut % (docs.length + 1);
        const [list, tail] = [partOf(docs.slice(0, split)), partOf(docs.slice(split))];
        const joined = joinedInstances(decodePositions([list]), decodePositions([tail]));
        expect(decodePositions([list, tail])).toEqual(joined);
        expect(encodePositions(joined)).toEqual(postingsOf(triplesOf(docs)).positions);
      }),
    );
  });
});

describe('positions a write appends to', () => {
  it('read back as every document, byte for byte as written at once, whatever the list, tail and appended documents hold', () => {
    fc.assert(
      fc.property(documents, fc.nat(), fc.nat(), (raw, cut, cutTail) => {
        const docs = instancesOf(raw);
        const split = cut % (docs.length + 1);
        const tailEnd = split + (cutTail % (docs.length - split + 1));
        const whole = postingsOf(triplesOf(docs)).positions;
        const [list, tail, added] = [docs.slice(0, split), docs.slice(split, tailEnd), docs.slice(tailEnd)];
        const stored = [partOf(list), ...(tail.length ? [partOf(tail)] : [])];
        // A list rewritten with its tail folded in, and a tail appended to.
        expect(appendedPositions(stored, flatOf(added))).toEqual(whole);
        expect(appendedPositions([partOf(list)], flatOf(docs.slice(split)))).toEqual(whole);
        expect(appendedPositions([], flatOf(docs))).toEqual(whole);
        const decoded = decodePositions([new StoredPositions(appendedPositions(stored, flatOf(added)))]);
        expect(documentsOf(decoded)).toEqual(docs);
        // Decoded from any document on, across parts, as the append decodes what it does not copy.
        const from = cutTail % (docs.length + 1);
        expect(documentsOf(decodePositions([partOf(docs.slice(0, split)), partOf(docs.slice(split))], from))).toEqual(docs.slice(from));
      }),
    );
  });
});

describe('positions joined and cut at documents', () => {
  it('keep each document whole: any runs of documents, joined, read back as those documents', () => {
    fc.assert(
      fc.property(documents, fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }), (raw, cuts) => {
        const docs = instancesOf(raw);
        const flat = flatOf(docs);
        const starts = instanceStarts(flat);
        const runs = cuts.map(([a, b]) => [a % (docs.length + 1), b % (docs.length + 1)].sort((x, y) => x - y) as [number, number]);
        const joiner = new DocumentsJoiner(
          runs.reduce((sum, [from, to]) => sum + to - from, 0),
          runs.reduce((sum, [from, to]) => sum + starts[to]! - starts[from]!, 0),
        );
        for (const [from, to] of runs) joiner.add(flat, starts, from, to);
        const expected = runs.flatMap(([from, to]) => docs.slice(from, to));
        const written = encodePositions(joiner.build());
        expect(documentsOf(decodePositions([new StoredPositions(written)]))).toEqual(expected);
      }),
    );
  });
});
