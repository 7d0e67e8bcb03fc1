import { promises as fs } from 'node:fs';
import { BudgetCache } from '../caches/budget-cache';
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

/** Bytes kept for one version of a file: its content (with its validator) or one compressed form. */
interface Kept {
  readonly size: number;
  readonly mtime: number;
  readonly bytes: Buffer;
  readonly etag?: string;
}

/**
 * The app's files kept as sent. Every first visit asks for the same scripts and styles, and
 * reading, hashing and compressing them for each one, on the thread that answers every
 * request, was most of the server's work of a page load. A file is known by its path, size and
 * modification time, so a rebuilt app is read again; the kept bytes stay under `budgetBytes`,
 * the file asked for longest ago let go first.
 */
export class SentFiles {
  private readonly kept: BudgetCache<Kept>;

  constructor(budgetBytes = 32 * 1024 * 1024) {
    this.kept = new BudgetCache(budgetBytes);
  }

  async read(file: FileVersion): Promise<SentFile> {
    const known = this.current(file.path, file);
    const content = known?.bytes ?? (await fs.readFile(file.path));
    const etag = known?.etag ?? etagOf([content], '');
    if (!known) this.kept.set(file.path, { size: file.size, mtime: file.mtime, bytes: content, etag }, content.length);
    return {
      content,
      etag,
      encoded: (encoding) => {
        const key = `${encoding} ${file.path}`;
        const kept = this.current(key, file);
        if (kept) return kept.bytes;
        const compressed = compress(content, encoding);
        this.kept.set(key, { size: file.size, mtime: file.mtime, bytes: compressed }, compressed.length);
        return compressed;
      },
    };
  }

  /** What is kept under `key` for this version of the file, if anything. */
  private current(key: string, file: FileVersion): Kept | undefined {
    const kept = this.kept.get(key);
    return kept && kept.size === file.size && kept.mtime === file.mtime ? kept : undefined;
  }
}
