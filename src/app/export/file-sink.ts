import type { ExportFormat } from './export-formats';
import { saveBlob } from '../ui/save-blob';

/**
 * Where a large download goes. Browsers with the File System Access API (Chromium) stream
 * it into a file the user picks, so it never sits in memory; elsewhere the chunks are
 * gathered into a Blob, consolidated as they come, and saved through <a download>.
 */

export interface FileSink {
  readonly kind: 'file' | 'memory';
  write(bytes: Uint8Array): Promise<void>;
  /** Finishes the file: closes it on disk, or hands the assembled Blob to the downloads. */
  close(): Promise<void>;
  /** Drops what was written (after Cancel). */
  abort(): Promise<void>;
  /** The bytes so far as a Blob (memory only), for saving an incomplete download on request. */
  partial?(): Blob;
}

interface SaveFilePickerOptions {
  suggestedName: string;
  types: { description: string; accept: Record<string, string[]> }[];
}
type SaveFilePicker = (options: SaveFilePickerOptions) => Promise<FileSystemFileHandle>;

function savePicker(): SaveFilePicker | undefined {
  const picker = (globalThis as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  return typeof picker === 'function' ? (picker.bind(globalThis) as SaveFilePicker) : undefined;
}

/** Parts are merged into Blobs of about this size, which browsers may keep on disk. */
const consolidateBytes = 8 * 1024 * 1024;

export function memorySink(fileName: string, mimeType: string, save: (blob: Blob, name: string) => void = saveBlob): FileSink {
  const blobs: Blob[] = [];
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const assemble = () => new Blob([...blobs, ...(pending as BlobPart[])], { type: mimeType });
  return {
    kind: 'memory',
    async write(bytes) {
      pending.push(bytes);
      pendingBytes += bytes.byteLength;
      if (pendingBytes >= consolidateBytes) {
        blobs.push(new Blob(pending as BlobPart[]));
        pending = [];
        pendingBytes = 0;
      }
    },
    async close() {
      save(assemble(), fileName);
    },
    async abort() {
      blobs.length = 0;
      pending = [];
    },
    partial: assemble,
  };
}

function fileSystemSink(writable: FileSystemWritableFileStream): FileSink {
  return {
    kind: 'file',
    write: (bytes) => writable.write(bytes as BufferSource),
    close: () => writable.close(),
    abort: () => writable.abort(),
  };
}

/**
 * Opens the sink. Must be called straight from the click (the file picker needs the user's
 * gesture). Resolves undefined when the user dismisses the picker: nothing should start.
 */
export async function openFileSink(
  fileName: string,
  format: ExportFormat,
  options: { usePicker?: boolean } = {},
): Promise<FileSink | undefined> {
  const picker = options.usePicker === false ? undefined : savePicker();
  if (picker) {
    try {
      const handle = await picker({
        suggestedName: fileName,
        types: [
          { description: `${format.label} file`, accept: { [format.mimeType.split(';')[0]!]: [`.${format.extension.split('.').at(-1)}`] } },
        ],
      });
      return fileSystemSink(await handle.createWritable());
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return undefined;
      // No gesture left, a policy, or a headless browser without pickers: gather in memory.
    }
  }
  return memorySink(fileName, format.mimeType.split(';')[0]!);
}
