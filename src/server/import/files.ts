import { readFileSync } from 'node:fs';
import type { Deployment } from '../../deployments/schema';
import type { StoredRecord } from '../store/types';
import { JsonRecordWatch, megabytes, RecordTooLarge, XmlRecordWatch, type RecordWatch } from './record-size';
import { ImportError, parseUpstreamJson, parseUpstreamXml } from './upstream';

/** Decides the format by content: file extensions of harvested data are unreliable. */
function parseByContent(deployment: Deployment, text: string, source: string): StoredRecord[] {
  const first = /\S/.exec(text.replace(/^\uFEFF/, ''))?.[0];
  if (first === '[' || first === '{') return parseUpstreamJson(deployment, checkedSizes(text, new JsonRecordWatch(), source), source);
  if (first === '<') return parseUpstreamXml(deployment, checkedSizes(text, new XmlRecordWatch(), source), source);
  if (first === undefined) throw new ImportError(source, 'the file is empty');
  throw new ImportError(source, `neither JSON nor XML: the content starts with ${JSON.stringify(first)}`);
}

/** The text, once no record in it is over the record limit: one is refused by position and id before anything is parsed. */
function checkedSizes(text: string, watch: RecordWatch, source: string): string {
  try {
    watch.feed(text);
  } catch (error) {
    if (!(error instanceof RecordTooLarge)) throw error;
    throw new ImportError(source, `${error.message}; records over ${megabytes(error.limit)} are refused`);
  }
  return text;
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new ImportError(path, `cannot read the file: ${reason}`);
  }
}

/**
 * Every record of the given upstream files (JSON or XML, told apart by content), for one
 * deployment. All files are parsed before anything is returned and the first defect
 * throws, so the caller can write everything in one transaction or nothing. A record
 * seen twice, in one file or across files, is kept once with the later version's content.
 */
export function readUpstreamFiles(deployment: Deployment, paths: readonly string[]): StoredRecord[] {
  const byId = new Map<string, StoredRecord>();
  for (const path of paths) {
    for (const stored of parseByContent(deployment, readText(path), path)) byId.set(stored.record.repo_id, stored);
  }
  return [...byId.values()];
}
