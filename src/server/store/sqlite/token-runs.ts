import type Database from 'better-sqlite3';
import { knownTokens, learnCharacters } from './query-tokenizer';
import { batchTokenizer } from './fts5-adapter';

/**
 * FTS5's tokens of a text without an FTS5 index of it: the text is cut at ASCII
 * separators, and each distinct piece is tokenized once (cached), which is the same as
 * tokenizing the whole text. FTS5's unicode61 takes exactly the ASCII letters and digits
 * as token characters (its categories L*, N*, Co hold no other ASCII), and ends a token
 * at any other ASCII character, after which it starts afresh as at the start of a text; a
 * token never spans one, and what FTS5 does inside a piece (non-ASCII letters, diacritics,
 * folding, Porter's stemmer on the whole token) depends on that piece alone. A new piece is
 * tokenized by the query tokenizer (query-tokenizer.ts), whose rules for characters outside
 * ASCII are FTS5's own answers, or by FTS5 where that one is not sure; token-runs.test.ts
 * holds the tokens to FTS5's over random Unicode and the real records.
 *
 * A bulk build's text repeats its words endlessly: looking a piece up costs far less than
 * FTS5 writing every instance into an index and fts5vocab reading each back as text.
 */

/** Whether an ASCII code is a token character of unicode61 (its categories L*, N*, Co). */
const asciiTokenChar = new Uint8Array(128);
for (let code = 0; code < 128; code++) asciiTokenChar[code] = /[0-9A-Za-z]/.test(String.fromCharCode(code)) ? 1 : 0;

/** Pieces kept tokenized at most; more are forgotten (a hostile text's pieces need not stay). */
const maxCachedPieces = 500_000;

/** Pieces tokenized by FTS5 in one statement's worth of rows. */
const batchPieces = 4096;

/** A text as the pieces FTS5 tokenizes apart: the maximal runs of characters that are not ASCII separators. */
export function piecesOf(text: string, into: string[]): void {
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128 && asciiTokenChar[code] === 0) {
      if (start >= 0) into.push(text.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  if (start >= 0) into.push(text.slice(start));
}

/** FNV-1a over UTF-16 code units, as a piece's characters are scanned (no piece string is cut to look it up). */
const hashStart = 0x811c9dc5;
const hashStep = (hash: number, code: number): number => Math.imul(hash ^ code, 0x01000193);

/**
 * Tokenizes texts as FTS5 with the store's tokenizer does, through a scratch FTS5 table
 * named `name` in the temp schema for the pieces it has not seen. Tokens are numbered
 * (`tokens[n]` is token n's text) so a caller can keep its own data by token in arrays.
 *
 * Known pieces are found by a hash of their characters taken as the text is scanned, in a
 * table of its own, and compared in place: a build looks up every word of every record, and
 * cutting each out as a string to look it up in a Map cost more than the rest of the work.
 */
export class PieceTokenizer {
  /** Each token's text, by its number. */
  readonly tokens: string[] = [];
  private readonly numbers = new Map<string, number>();
  /** Each known piece's text, hash and tokens, by the piece's number. */
  private pieceTexts: string[] = [];
  private pieceHashes = new Int32Array(1024);
  private pieceTokens: Int32Array[] = [];
  /** Open addressing by hash: a piece's number plus one, 0 where free. */
  private slots = new Int32Array(2048);
  private readonly fts5Tokens: (texts: readonly string[]) => string[][];

  constructor(db: Database.Database, name: string) {
    this.fts5Tokens = batchTokenizer(db, name);
  }

  /** The number of a token, given one if new. */
  private numberOf(token: string): number {
    let n = this.numbers.get(token);
    if (n === undefined) {
      n = this.tokens.length;
      this.tokens.push(token);
      this.numbers.set(token, n);
    }
    return n;
  }

  /** The number of the known piece `text.slice(start, end)` of hash `hash`, or -1. */
  private find(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return -1;
      const piece = entry - 1;
      if (this.pieceHashes[piece] === hash) {
        const known = this.pieceTexts[piece]!;
        if (known.length === end - start && text.startsWith(known, start)) return piece;
      }
    }
  }

  private place(piece: number): void {
    const mask = this.slots.length - 1;
    let slot = this.pieceHashes[piece]! & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = piece + 1;
  }

  /** Keeps a piece and its tokens; returns its number. */
  private keep(text: string, hash: number, tokens: Int32Array): number {
    const piece = this.pieceTexts.length;
    this.pieceTexts.push(text);
    this.pieceTokens.push(tokens);
    if (piece === this.pieceHashes.length) {
      const grown = new Int32Array(piece * 2);
      grown.set(this.pieceHashes);
      this.pieceHashes = grown;
    }
    this.pieceHashes[piece] = hash;
    if ((piece + 1) * 2 > this.slots.length) {
      this.slots = new Int32Array(this.slots.length * 2);
      for (let each = 0; each < piece; each++) this.place(each);
    }
    this.place(piece);
    return piece;
  }

  /**
   * Tokenizes the pieces not yet known; returns their numbers as known pieces. JavaScript's
   * tokenizer (query-tokenizer.ts) takes each piece whose characters FTS5 has shown it; the
   * rest go to FTS5, a batch at a time.
   */
  private learn(unknown: readonly string[], hashes: readonly number[]): Int32Array {
    learnCharacters(unknown, (text) => this.fts5Tokens([text])[0]!);
    const numbers = new Int32Array(unknown.length);
    const keep = (i: number, tokens: readonly string[]) =>
      (numbers[i] = this.keep(
        unknown[i]!,
        hashes[i]!,
        Int32Array.from(tokens, (token) => this.numberOf(token)),
      ));
    const unsure: number[] = [];
    unknown.forEach((piece, i) => {
      const tokens = knownTokens(piece);
      if (tokens === undefined) unsure.push(i);
      else keep(i, tokens);
    });
    for (let from = 0; from < unsure.length; from += batchPieces) {
      const batch = unsure.slice(from, from + batchPieces);
      const found = this.fts5Tokens(batch.map((i) => unknown[i]!));
      batch.forEach((i, k) => keep(i, found[k]!));
    }
    this.fts5Pieces += unsure.length;
    return numbers;
  }

  /** Pieces FTS5 tokenized, where JavaScript's tokenizer could not be sure of them. */
  fts5Pieces = 0;

  private forgetPieces(): void {
    this.pieceTexts = [];
    this.pieceTokens = [];
    this.pieceHashes = new Int32Array(1024);
    this.slots = new Int32Array(2048);
  }

  /** Forgets every token and piece: tokens are numbered afresh from 0. */
  reset(): void {
    this.tokens.length = 0;
    this.numbers.clear();
    this.forgetPieces();
  }

  private out = new Int32Array(65536);
  /** The pieces of the texts being tokenized, by number (an unknown one as -1 - its place among the unknown). */
  private found = new Int32Array(65536);

  /**
   * Each text's tokens, by number, in order: text i's are `tokens` from `ends[i - 1]` (0 for
   * the first) to `ends[i]`, and an FTS5 offset is a token's place among its text's.
   * `tokens` is overwritten by the next call.
   */
  tokenize(texts: readonly string[]): { tokens: Int32Array; ends: Int32Array } {
    if (this.pieceTexts.length > maxCachedPieces) this.forgetPieces();
    const pieceEnds = new Int32Array(texts.length);
    // Each piece looked up once: its number, or its place among the unknown until learnt.
    let pieces = 0;
    let unknown: Map<string, number> | undefined;
    const unknownHashes: number[] = [];
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      let start = -1;
      let hash = hashStart;
      for (let at = 0; at <= text.length; at++) {
        const code = at < text.length ? text.charCodeAt(at) : 0;
        if (at === text.length || (code < 128 && asciiTokenChar[code] === 0)) {
          if (start < 0) continue;
          let piece = this.find(text, start, at, hash);
          if (piece < 0) {
            const cut = text.slice(start, at);
            unknown ??= new Map();
            let place = unknown.get(cut);
            if (place === undefined) {
              unknown.set(cut, (place = unknown.size));
              unknownHashes.push(hash);
            }
            piece = -1 - place;
          }
          if (pieces === this.found.length) {
            const grown = new Int32Array(pieces * 2);
            grown.set(this.found);
            this.found = grown;
          }
          this.found[pieces++] = piece;
          start = -1;
        } else {
          if (start < 0) {
            start = at;
            hash = hashStart;
          }
          hash = hashStep(hash, code);
        }
      }
      pieceEnds[i] = pieces;
    }
    const found = this.found;
    if (unknown) {
      const learnt = this.learn([...unknown.keys()], unknownHashes);
      for (let p = 0; p < pieces; p++) if (found[p]! < 0) found[p] = learnt[-1 - found[p]!]!;
    }
    const ends = new Int32Array(texts.length);
    let at = 0;
    let p = 0;
    for (let i = 0; i < texts.length; i++) {
      for (; p < pieceEnds[i]!; p++) {
        const part = this.pieceTokens[found[p]!]!;
        if (at + part.length > this.out.length) {
          const grown = new Int32Array(Math.max(at + part.length, this.out.length * 2));
          grown.set(this.out.subarray(0, at));
          this.out = grown;
        }
        if (part.length === 1) this.out[at++] = part[0]!;
        else {
          this.out.set(part, at);
          at += part.length;
        }
      }
      ends[i] = at;
    }
    return { tokens: this.out, ends };
  }
}
