import type Database from 'better-sqlite3';
import { ftsTokenizer } from './schema';

/**
 * FTS5's tokens of a text without an FTS5 index of it: the text is cut at ASCII
 * separators, and FTS5 tokenizes each distinct piece once (cached), which is the same as
 * tokenizing the whole text. FTS5's unicode61 takes exactly the ASCII letters and digits
 * as token characters (its categories L*, N*, Co hold no other ASCII), and ends a token
 * at any other ASCII character, after which it starts afresh as at the start of a text; a
 * token never spans one, and what FTS5 does inside a piece (non-ASCII letters, diacritics,
 * folding, Porter's stemmer on the whole token) depends on that piece alone. So each
 * token is FTS5's own, with no table of Unicode or stemmer here to drift from SQLite's;
 * token-runs.test.ts holds it to FTS5's tokens over random Unicode and the real records.
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

/**
 * Tokenizes texts as FTS5 with the store's tokenizer does, through a scratch FTS5 table
 * named `name` in the temp schema for the pieces it has not seen. Tokens are numbered
 * (`tokens[n]` is token n's text) so a caller can keep its own data by token in arrays.
 */
export class PieceTokenizer {
  /** Each token's text, by its number. */
  readonly tokens: string[] = [];
  private readonly numbers = new Map<string, number>();
  private readonly pieces = new Map<string, Int32Array>();
  private readonly insert: Database.Statement;
  private readonly read: Database.Statement;
  private readonly clear: Database.Statement;

  constructor(db: Database.Database, name: string) {
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name} USING fts5(text, tokenize='${ftsTokenizer}', content='')`);
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name}_instances USING fts5vocab(temp, ${name}, 'instance')`);
    this.insert = db.prepare(`INSERT INTO temp.${name} (rowid, text) VALUES (?, ?)`);
    this.read = db.prepare(`SELECT doc, "offset", term FROM temp.${name}_instances`).raw();
    this.clear = db.prepare(`INSERT INTO temp.${name} (${name}) VALUES ('delete-all')`);
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

  /** Tokenizes the pieces not yet known, a batch at a time. */
  private learn(unknown: readonly string[]): void {
    for (let from = 0; from < unknown.length; from += batchPieces) {
      const batch = unknown.slice(from, from + batchPieces);
      const found: number[][] = batch.map(() => []);
      batch.forEach((piece, i) => this.insert.run(i + 1, piece));
      for (const [doc, offset, term] of this.read.iterate() as Iterable<[number, number, string]>) {
        found[doc - 1]![offset] = this.numberOf(term);
      }
      this.clear.run();
      batch.forEach((piece, i) => this.pieces.set(piece, Int32Array.from(found[i]!)));
    }
  }

  /** Forgets every token and piece: tokens are numbered afresh from 0. */
  reset(): void {
    this.tokens.length = 0;
    this.numbers.clear();
    this.pieces.clear();
  }

  private out = new Int32Array(65536);

  /**
   * Each text's tokens, by number, in order: text i's are `tokens` from `ends[i - 1]` (0 for
   * the first) to `ends[i]`, and an FTS5 offset is a token's place among its text's.
   * `tokens` is overwritten by the next call.
   */
  tokenize(texts: readonly string[]): { tokens: Int32Array; ends: Int32Array } {
    const pieces: string[] = [];
    const pieceEnds = new Int32Array(texts.length);
    texts.forEach((text, i) => {
      piecesOf(text, pieces);
      pieceEnds[i] = pieces.length;
    });
    if (this.pieces.size > maxCachedPieces) this.pieces.clear();
    // Each piece looked up once: its tokens, or undefined until learnt.
    const parts: (Int32Array | undefined)[] = new Array<Int32Array | undefined>(pieces.length);
    let unknown: Set<string> | undefined;
    for (let p = 0; p < pieces.length; p++) {
      const part = this.pieces.get(pieces[p]!);
      parts[p] = part;
      if (!part) (unknown ??= new Set()).add(pieces[p]!);
    }
    if (unknown) {
      this.learn([...unknown]);
      for (let p = 0; p < pieces.length; p++) parts[p] ??= this.pieces.get(pieces[p]!);
    }
    const ends = new Int32Array(texts.length);
    let at = 0;
    let p = 0;
    for (let i = 0; i < texts.length; i++) {
      for (; p < pieceEnds[i]!; p++) {
        const part = parts[p]!;
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
