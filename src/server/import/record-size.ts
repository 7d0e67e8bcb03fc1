/**
 * The size of each record in a page or file of upstream records, watched as the text
 * arrives, so a record too large to take is refused before it is read whole, with its
 * position and id, rather than parsed into gigabytes. A JSON watch also finds where each
 * record starts and ends, so a page can be parsed a slice of records at a time.
 */

/** The largest record accepted, in characters of its JSON or XML text. */
export const maxRecordChars = 4 * 1024 * 1024;

/** How much of a record's start is kept to name it when it is refused. */
const headChars = 64 * 1024;

export class RecordTooLarge extends Error {
  constructor(
    /** The record's position in its page or file, from 1. */
    readonly position: number,
    readonly id: string | undefined,
    /** Characters of the record seen when it was refused (it may be longer). */
    readonly size: number,
    readonly limit: number,
  ) {
    super(`record ${position}${id ? ` (id ${id})` : ''} is larger than ${megabytes(limit)} (${megabytes(size)} read when it was refused)`);
    this.name = 'RecordTooLarge';
  }
}

export const megabytes = (chars: number) => `${(chars / 1024 / 1024).toFixed(chars < 1024 * 1024 ? 2 : 1)} MB`;

/** The record's id among the first characters of its text, JSON or XML. */
function idIn(head: string): string | undefined {
  const json = /"(?:repo_id|osti_id)"[ \t\r\n]*:[ \t\r\n]*(?:"([^"\\]{1,200})"|(\d{1,20}))/.exec(head);
  if (json) return json[1] ?? json[2];
  return /<(?:repo_id|osti_id)>([^<]{1,200})<\//.exec(head)?.[1]?.trim();
}

export interface RecordWatch {
  /** The next part of the text, in order. Throws RecordTooLarge. */
  feed(text: string): void;
}

/**
 * A top-level JSON array of records: tracks nesting and strings one character at a time.
 * `spans` are the [start, end) character offsets of each element; `complete` says the array
 * closed with nothing but white space after it, so parsing the spans is parsing the text.
 */
export class JsonRecordWatch implements RecordWatch {
  readonly spans: [number, number][] = [];
  private offset = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private start = -1;
  private head = '';
  private closed = false;
  private trailing = false;

  constructor(private readonly limit = maxRecordChars) {}

  get complete(): boolean {
    return this.closed && !this.trailing;
  }

  /** The text being fed, and where the current record starts in it (-1: not in it). */
  private text = '';
  private headFrom = -1;

  feed(text: string): void {
    this.text = text;
    this.headFrom = this.start >= 0 ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) {
          this.inString = false;
          if (this.depth === 1 && this.start >= 0 && this.isPrimitive) this.end(this.offset + i + 1);
        }
        continue;
      }
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff) continue;
      if (this.closed) {
        this.trailing = true;
        continue;
      }
      // Only an array of records is delimited: any other top level is left to the parser.
      if (this.depth === 0 && c !== 0x5b) this.trailing = true;
      if (this.depth === 1 && this.start < 0 && c !== 0x2c && c !== 0x5d) {
        this.start = this.offset + i;
        this.isPrimitive = c !== 0x7b && c !== 0x5b;
        this.headFrom = i;
      }
      if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      else if (c === 0x7d || c === 0x5d) {
        if (this.depth === 1 && this.start >= 0) this.end(this.offset + i);
        this.depth--;
        if (this.depth === 1 && this.start >= 0) this.end(this.offset + i + 1);
        if (this.depth === 0) this.closed = true;
        if (this.depth < 0) this.trailing = true;
      } else if (c === 0x2c && this.depth === 1 && this.start >= 0) this.end(this.offset + i);
      if (this.start < 0) this.headFrom = -1;
    }
    this.offset += text.length;
    if (this.start >= 0) {
      this.head = this.currentHead();
      this.check(this.offset);
    }
  }

  private currentHead(): string {
    if (this.headFrom < 0 || this.head.length >= headChars) return this.head;
    return this.head + this.text.slice(this.headFrom, this.headFrom + headChars - this.head.length);
  }

  private isPrimitive = false;

  private end(at: number): void {
    this.check(at);
    this.spans.push([this.start, at]);
    this.start = -1;
    this.head = '';
  }

  private check(at: number): void {
    if (at - this.start > this.limit)
      throw new RecordTooLarge(this.spans.length + 1, idIn(this.currentHead()), at - this.start, this.limit);
  }
}

const recordEnd = '</record>';

/** `records/record` XML: the text between one `</record>` and the next is at most one record. */
export class XmlRecordWatch implements RecordWatch {
  /** Characters fed before the text now fed, less the carry. */
  private base = 0;
  /** Where the last record ended (0 before the first). */
  private boundary = 0;
  private count = 0;
  /** The start of the text after the boundary, when it began in an earlier part. */
  private head = '';
  /** The end of the text before, which may hold the start of a `</record>`. */
  private carry = '';

  constructor(private readonly limit = maxRecordChars) {}

  feed(text: string): void {
    const joined = this.carry + text;
    const headOf = () =>
      this.boundary >= this.base
        ? joined.slice(this.boundary - this.base, this.boundary - this.base + headChars)
        : this.head + text.slice(0, headChars - this.head.length);
    const check = (at: number) => {
      if (at - this.boundary > this.limit) throw new RecordTooLarge(this.count + 1, idIn(headOf()), at - this.boundary, this.limit);
    };
    for (let at = joined.indexOf(recordEnd); at !== -1; at = joined.indexOf(recordEnd, at + recordEnd.length)) {
      check(this.base + at + recordEnd.length);
      this.count++;
      this.boundary = this.base + at + recordEnd.length;
    }
    check(this.base + joined.length);
    this.head = headOf();
    const kept = Math.min(joined.length, recordEnd.length - 1);
    this.carry = joined.slice(joined.length - kept);
    this.base += joined.length - kept;
  }
}
