import type { Deployment } from '../../deployments/schema';
import type { StoredRecord } from '../store/types';
import { mapUpstreamRecord, upstreamId } from './map-record';
import { describeValue, InputProblem } from './problem';
import { parseXmlRecords, xmlRecordToObject } from './xml-records';

/** Where in the input a problem sits; the record position counts from 1. */
export interface ImportErrorLocation {
  readonly record?: number;
  readonly id?: string;
  readonly field?: string;
}

/**
 * Malformed import input. The message names the file, the record (position from 1, and
 * its id when known) and the field, so a curator can fix the file without a debugger.
 */
export class ImportError extends Error {
  constructor(
    readonly source: string,
    readonly problem: string,
    readonly location: ImportErrorLocation = {},
  ) {
    super(ImportError.compose(source, problem, location));
    this.name = 'ImportError';
  }

  private static compose(source: string, problem: string, { record, id, field }: ImportErrorLocation): string {
    const where = [source];
    if (record !== undefined) where.push(`record ${record}${id !== undefined ? ` (id ${id})` : ''}`);
    if (field !== undefined) where.push(`field ${field}`);
    return `${where.join(', ')}: ${problem}`;
  }
}

const withoutBom = (text: string) => (text.startsWith('\uFEFF') ? text.slice(1) : text);

function mapAll(
  deployment: Deployment,
  source: string,
  items: readonly unknown[],
  toObject: (item: unknown) => Record<string, unknown>,
  firstPosition = 1,
): StoredRecord[] {
  return items.map((item, index) => {
    try {
      return mapUpstreamRecord(deployment, toObject(item));
    } catch (problem) {
      if (!(problem instanceof InputProblem)) throw problem;
      // Read from the item itself: the failure may have come before the record was built.
      const id = typeof item === 'object' && item !== null ? upstreamId(item as Record<string, unknown>) : undefined;
      throw new ImportError(source, problem.message, { record: index + firstPosition, id, field: problem.field });
    }
  });
}

function jsonObject(item: unknown): Record<string, unknown> {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw new InputProblem(`expected an object, got ${describeValue(item)}`);
  }
  return item as Record<string, unknown>;
}

/**
 * Records from the upstream's JSON: a top-level array of record objects. `firstPosition`
 * is the position of the array's first record when it is a slice of a larger one.
 */
export function parseUpstreamJson(deployment: Deployment, text: string, source: string, firstPosition = 1): StoredRecord[] {
  let document: unknown;
  try {
    document = JSON.parse(withoutBom(text));
  } catch (error) {
    throw new ImportError(source, `invalid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(document)) {
    throw new ImportError(source, `expected a JSON array of records at the top level, got ${describeValue(document)}`);
  }
  return mapAll(deployment, source, document, jsonObject, firstPosition);
}

/** Records from the upstream's XML: `records/record`, lists in plural containers. */
export function parseUpstreamXml(deployment: Deployment, text: string, source: string): StoredRecord[] {
  let nodes: unknown[];
  try {
    nodes = parseXmlRecords(deployment, withoutBom(text));
  } catch (problem) {
    if (!(problem instanceof InputProblem)) throw problem;
    throw new ImportError(source, problem.message);
  }
  return mapAll(deployment, source, nodes, xmlRecordToObject);
}
