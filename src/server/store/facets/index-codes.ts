import type { DecodedBlock } from './code-blocks';
import type { ColumnChange } from './column-change';
import type { FacetIndex } from './facet-index';

/**
 * This index's codes: each facet's groups from its first code (new groups after its others),
 * then the joint codes, the index before's first, in the same order; `remap` takes a code of
 * the index before to this one's.
 */
export class IndexCodes {
  readonly firstCodes: number[] = [];
  /** The first joint code: the number of value codes. */
  readonly base: number;
  readonly remap: Int32Array;
  readonly facetOf: Int32Array;
  /** Each joint code's members (this index's codes), less the base, and each combination's joint code by its members. */
  readonly members: number[][] = [];
  readonly combinations = new Map<string, number>();
  /** Joint facets are joined into parts as they were: each facet's part. */
  private readonly partOf: number[];

  constructor(
    private readonly changes: readonly ColumnChange[],
    private readonly before: FacetIndex,
  ) {
    let base = 0;
    for (const change of changes) {
      this.firstCodes.push(base);
      base += change.values.length;
    }
    this.base = base;
    const oldBase = before.totals.length;
    const joint = before.joint;
    const jointCount = joint ? joint.starts.length - 1 : 0;
    this.remap = new Int32Array(oldBase + jointCount);
    changes.forEach(({ old }, f) => {
      for (let g = 0; g < old.values.length; g++) this.remap[old.firstCode + g] = this.firstCodes[f]! + g;
    });
    for (let j = 0; j < jointCount; j++) this.remap[oldBase + j] = base + j;
    this.facetOf = new Int32Array(base);
    changes.forEach((change, f) => this.facetOf.fill(f, this.firstCodes[f], this.firstCodes[f]! + change.values.length));
    this.partOf = changes.map((_, f) => f);
    for (let j = 0; j < jointCount; j++) {
      const codes = Array.from(joint!.members.subarray(joint!.starts[j], joint!.starts[j + 1]), (code) => this.remap[code]!);
      this.members.push(codes);
      this.combinations.set(codes.join(','), j);
      for (let m = 1; m < codes.length; m++) this.partOf[this.part(this.facetOf[codes[m]!]!)] = this.part(this.facetOf[codes[0]!]!);
    }
  }

  part(facet: number): number {
    const up = this.partOf[facet]!;
    return up === facet ? facet : (this.partOf[facet] = this.part(up));
  }

  isJoint(facet: number): boolean {
    return Boolean(this.changes[facet]!.old.joint);
  }

  /** The joint code of a combination of codes of one part's facets, a new one where no record held it before. */
  jointCode(codes: number[]): number {
    codes.sort((a, b) => a - b);
    const key = codes.join(',');
    let j = this.combinations.get(key);
    if (j === undefined) {
      this.combinations.set(key, (j = this.members.length));
      this.members.push(codes);
    }
    return this.base + j;
  }

  /** Calls `each` with a code (this index's) or each of its members, a joint code's. */
  eachMember(code: number, each: (member: number) => void): void {
    if (code < this.base) each(code);
    else for (const member of this.members[code - this.base]!) each(member);
  }
}

/** The codes of record `r` (its place `i` in the blocks `blocks`, one per facet), or why they cannot be followed. */
export function recordCodes(
  codes: IndexCodes,
  changes: readonly ColumnChange[],
  blocks: readonly (DecodedBlock | undefined)[],
  i: number,
  seen: Int32Array,
  r: number,
): number[] | string {
  const own: number[] = [];
  const parts = new Map<number, number[]>();
  for (let f = 0; f < changes.length; f++) {
    const decoded = blocks[f];
    if (!decoded) continue;
    const { groupOf } = changes[f]!.state;
    for (let k = decoded.offsets[i]!; k < decoded.offsets[i + 1]!; k++) {
      const group = groupOf[decoded.codes[k]!]!;
      const code = codes.firstCodes[f]! + group;
      // Two spellings of one group count once.
      if (group < 0 || seen[code] === r) continue;
      seen[code] = r;
      if (!codes.isJoint(f)) {
        own.push(code);
        continue;
      }
      const part = parts.get(codes.part(f)) ?? [];
      if (part.some((other) => codes.facetOf[other] === f)) return 'a single-valued facet with two values';
      part.push(code);
      parts.set(codes.part(f), part);
    }
  }
  for (const part of parts.values()) own.push(codes.jointCode(part));
  return own;
}
