import { promises as fs } from 'node:fs';
import { compress, etagOf, type ContentEncoding } from '../render/body-bytes';

/** A file of the built app as it is sent: its bytes, its validator and its compressed forms, made once per version of the file. */
export interface SentFile {
  readonly content: Buffer;
  readonly etag: string;
  /** The content compressed in `encoding`, compressed on the first request that asks for it. */
  encoded(encoding: ContentEncoding): Buffer;
}

interface FileVersion {
  readonly path: string;
  readonly size: number;
  readonly mtime: number;
}

/**
 * The app's files kept as sent. Every first visit asks for the same scripts and styles, and
 * reading, hashing and compressing them for each one, on the thread that answers every
 * request, was most of the server's work of a page load. A file is known by its path, size and
 * modification time, so a rebuilt app is read again; the kept bytes stay under `budgetBytes`,
 * the file asked for longest ago let go first.
 */
export class SentFiles {
  private readonly kept = new Map<string, { readonly version: FileVersion; readonly file: SentFile; bytes: number }>();
  private bytes = 0;

  constructor(private readonly budgetBytes = 32 * 1024 * 1024) {}

  async read(version: FileVersion): Promise<SentFile> {
    const known = this.kept.get(version.path);
    if (known && known.version.size === version.size && known.version.mtime === version.mtime) {
      // Most recently asked for last: the first in the map is the one to let go.
      this.kept.delete(version.path);
      this.kept.set(version.path, known);
      return known.file;
    }
    this.forget(version.path);
    const content = await fs.readFile(version.path);
    const encodings = new Map<ContentEncoding, Buffer>();
    const file: SentFile = {
      content,
      etag: etagOf([content], ''),
      encoded: (encoding) => {
        let body = encodings.get(encoding);
        if (!body) {
          body = compress(content, encoding);
          encodings.set(encoding, body);
          if (this.kept.get(version.path) === entry) this.grow(entry, body.length);
        }
        return body;
      },
    };
    const entry = { version, file, bytes: 0 };
    if (content.length <= this.budgetBytes / 4) {
      this.kept.set(version.path, entry);
      this.grow(entry, content.length);
    }
    return file;
  }

  private grow(entry: { bytes: number }, more: number): void {
    entry.bytes += more;
    this.bytes += more;
    for (const [path] of this.kept) {
      if (this.bytes <= this.budgetBytes) break;
      this.forget(path);
    }
  }

  private forget(path: string): void {
    const known = this.kept.get(path);
    if (!known) return;
    this.kept.delete(path);
    this.bytes -= known.bytes;
  }
}
