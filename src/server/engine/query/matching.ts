import { IdSet } from '../id-set';
import { isDense, recordsOf } from '../postings/dense-sets';
import { fewAgainst, keepHeldInBlocks } from '../postings/held-in-blocks';
import type { Leaf, MatchNode } from './compile';

/**
 * The records a compiled query matches, as a bitset: each leaf's ids (its counts unread),
 * combined word by word with AND, OR and AND NOT. Nothing is scored, so a count is the
 * set's population count, and the same set filters the ranking and the facet counts.
 */
export function matchSet(node: MatchNode, capacity: number, universe: () => IdSet): IdSet {
  switch (node.kind) {
    case 'leaf': {
      const { postings } = node.leaf;
      return postings.records?.() ?? recordsOf(postings, capacity);
    }
    case 'records':
      return node.records();
    case 'not':
      return universe().andNot(matchSet(node.child, capacity, universe));
    case 'or': {
      // One set the children are added into: a word's ids go in as its blocks are decoded,
      // with no set of its own to allocate and OR; a dense word's set, which its reader may
      // keep (dense-sets.ts), is ORed in whole.
      const set = new IdSet(capacity);
      for (const child of node.children) {
        if (child.kind === 'leaf' && !(child.leaf.postings.records && isDense(child.leaf.postings.docs, capacity))) {
          const { postings } = child.leaf;
          for (let b = 0; b < postings.blocks; b++) set.addAll(postings.ids(b));
        } else set.addSet(matchSet(child, capacity, universe));
      }
      return set;
    }
    case 'and': {
      // x AND NOT y is x without y: no detour through every record.
      const positive = node.children.filter((child) => child.kind !== 'not');
      let set = positive.length
        ? positive.map((child) => matchSet(child, capacity, universe)).reduce((acc, next) => acc.and(next))
        : universe();
      for (const child of node.children) if (child.kind === 'not') set = set.andNot(matchSet(child.child, capacity, universe));
      return set;
    }
  }
}

/**
 * The records of an AND of words (and the filter, if any) read from its shortest list's
 * side, ascending: that list's ids, kept where every other list's set (as matchSet reads
 * it) and the filter hold them. Where that list is short (an AND of a rare word), this
 * reads its few records where matchSet would make a set of them and AND sets of every
 * record, then count and list them.
 */
export function recordsLedByShortest(leaves: readonly Leaf[], capacity: number, filter: IdSet | undefined): Int32Array {
  let lead = 0;
  for (let p = 1; p < leaves.length; p++) if (leaves[p]!.postings.docs < leaves[lead]!.postings.docs) lead = p;
  const { postings } = leaves[lead]!;
  const ids = new Int32Array(postings.docs);
  let n = 0;
  for (let b = 0; b < postings.blocks; b++) {
    const block = postings.ids(b);
    ids.set(block, n);
    n += block.length;
  }
  for (let p = 0; p < leaves.length; p++)
    if (p !== lead) {
      const other = leaves[p]!.postings;
      // A few records against a long list: its blocks that may hold them, not a set of its every record.
      n = fewAgainst(n, other) ? keepHeldInBlocks(other, ids, n) : (other.records?.() ?? recordsOf(other, capacity)).keepHeld(ids, n);
    }
  if (filter) n = filter.keepHeld(ids, n);
  return ids.subarray(0, n);
}
