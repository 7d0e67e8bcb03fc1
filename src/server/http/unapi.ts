import type { IncomingMessage, ServerResponse } from 'node:http';
import { deploymentByKey, deployments } from '../../deployments/registry';
import { recordToBibtex } from '../../formats/bibtex';
import { apiError } from '../../formats/error';
import { recordToMods } from '../../formats/mods';
import { recordToRis } from '../../formats/ris';
import { recordToZoteroRdf } from '../../formats/zotero-rdf';
import { unapiId } from '../../formats/citation-meta';
import { escapeXml } from '../../formats/text';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import type { FoundRecord, RecordStore } from '../store/types';
import { sendError } from './api';
import { MalformedQueryError, parseQueryString } from './query-string';
import { send } from './respond';

/**
 * unAPI (`/unapi`): a record, named `KEY:repo_id` (`LIT:1828290`), in a format a reference
 * manager asks for. Without `id`, the formats offered; with `id` but no `format`, the same list
 * for that record (300); an unknown id is 404 and an unknown format 406, as unAPI says.
 */

interface UnapiFormat {
  readonly type: string;
  /** Further attributes of the format's entry in the list (a namespace its readers look for). */
  readonly attributes?: string;
  /** `generated`: the record is a generated demo record, which every format marks (formats/generated-mark.ts). */
  write(deployment: Deployment, record: ApiRecord, generated: boolean, bibtexPrefix: string, origin: string): string;
}

/**
 * The formats offered. Zotero's unAPI translator takes the one it ranks highest, whatever
 * the order here: Zotero RDF before MODS before RIS before BibTeX. Zotero RDF is offered so
 * that it is chosen: it is the one of these Zotero reads a report's or patent's number from.
 */
const formats: Record<string, UnapiFormat> = {
  rdf_zotero: {
    type: 'application/rdf+xml',
    attributes: ' namespace_uri="http://www.zotero.org/namespaces/export#"',
    write: (deployment, record, generated, _prefix, origin) => recordToZoteroRdf(deployment, record, generated, origin),
  },
  mods: {
    type: 'application/mods+xml',
    write: (deployment, record, generated, _prefix, origin) => recordToMods(deployment, record, generated, origin),
  },
  ris: {
    type: 'application/x-research-info-systems',
    write: (deployment, record, generated, _prefix, origin) => recordToRis(deployment, record, generated, origin),
  },
  bibtex: {
    type: 'application/x-bibtex',
    write: (_deployment, record, generated, prefix) => recordToBibtex(record, prefix, generated),
  },
};

export const unapiPath = '/unapi';

/** The head link every app page carries (records are named by `unapiId`, src/formats/citation-meta.ts). */
export const unapiLink = `<link rel="unapi-server" type="application/xml" title="unAPI" href="${unapiPath}">`;

function formatList(id?: string): string {
  const list = Object.entries(formats).map(
    ([name, format]) => `  <format name="${name}" type="${format.type}"${format.attributes ?? ''}/>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<formats${id ? ` id="${escapeXml(id)}"` : ''}>\n${list.join('\n')}\n</formats>\n`;
}

interface Found extends FoundRecord {
  readonly deployment: Deployment;
}

/**
 * The record an id names: `KEY:repo_id`, or a bare repo_id (as reference managers and
 * people copy it from the upstream), looked up in every catalog.
 */
async function findRecord(store: RecordStore, id: string): Promise<Found[]> {
  const colon = id.indexOf(':');
  const deployment = colon > 0 ? deploymentByKey(id.slice(0, colon)) : undefined;
  if (deployment) {
    const found = await store.get(deployment.key, id.slice(colon + 1));
    return found ? [{ deployment, ...found }] : [];
  }
  const found = await Promise.all(deployments.map(async (deployment) => ({ deployment, found: await store.get(deployment.key, id) })));
  return found.flatMap(({ deployment, found }) => (found ? [{ deployment, ...found }] : []));
}

/** A bare id more than one catalog has: its qualified ids, each in the formats list's shape. */
function choiceList(id: string, choices: readonly string[]): string {
  const list = choices.map((choice) => `  <id>${escapeXml(choice)}</id>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<choices id="${escapeXml(id)}">\n${list.join('\n')}\n</choices>\n`;
}

export async function handleUnapi(
  req: IncomingMessage,
  res: ServerResponse,
  search: string,
  store: RecordStore,
  bibtexPrefix: string,
  origin: string,
): Promise<void> {
  let params: Map<string, string>;
  try {
    params = new Map(parseQueryString(search));
  } catch (error) {
    if (!(error instanceof MalformedQueryError)) throw error;
    sendError(req, res, apiError(400, error.message));
    return;
  }
  const id = params.get('id');
  const formatName = params.get('format');
  const xml = 'application/xml; charset=utf-8';
  if (!id) {
    send(req, res, { status: 200, contentType: xml, body: formatList() });
    return;
  }
  const found = await findRecord(store, id);
  if (found.length > 1) {
    send(req, res, {
      status: 300,
      contentType: xml,
      body: choiceList(
        id,
        found.map((choice) => unapiId(choice.deployment, choice.record.repo_id)),
      ),
    });
    return;
  }
  const [only] = found;
  if (!only) {
    sendError(
      req,
      res,
      apiError(
        404,
        `No record is known as '${id.slice(0, 200)}'; an id is a repo_id, or one of ${deployments.map((d) => d.key).join(', ')} followed by ':' and the repo_id.`,
      ),
    );
    return;
  }
  if (!formatName) {
    send(req, res, { status: 300, contentType: xml, body: formatList(id) });
    return;
  }
  const format = Object.hasOwn(formats, formatName) ? formats[formatName] : undefined;
  if (!format) {
    sendError(req, res, apiError(406, `No format '${formatName.slice(0, 40)}'; unAPI here offers ${Object.keys(formats).join(', ')}.`));
    return;
  }
  send(req, res, {
    status: 200,
    contentType: `${format.type}; charset=utf-8`,
    body: format.write(only.deployment, only.record, only.generated, bibtexPrefix, origin),
  });
}
