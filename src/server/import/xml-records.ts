import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Deployment } from '../../deployments/schema';
import { InputProblem } from './problem';
import { xmlEntityDecoder } from './xml-entities';

/**
 * The upstream's XML (`records/record`, list fields as plural containers of singular
 * elements, links as `<link rel href/>`) turned into the same plain objects its JSON
 * gives, so one mapping serves both.
 */

const attributePrefix = '@_';
const textNode = '#text';

/** Containers the upstream writes whatever the target deployment's own names are. */
const upstreamContainers: readonly (readonly [string, string])[] = [
  ['research_orgs', 'research_org'],
  ['sponsor_orgs', 'sponsor_org'],
  ['contributing_orgs', 'contributing_org'],
  ['links', 'link'],
];

/** Container element to item element, from the deployment table and the upstream's names. */
function containersOf(deployment: Deployment): Map<string, string> {
  const containers = new Map(upstreamContainers);
  for (const field of deployment.fields) {
    if (field.item) containers.set(field.xml ?? field.name, field.item);
  }
  return containers;
}

function parserFor(deployment: Deployment): XMLParser {
  const itemPaths = new Set(['records.record']);
  for (const [container, item] of containersOf(deployment)) itemPaths.add(`records.record.${container}.${item}`);
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: attributePrefix,
    textNodeName: textNode,
    // Ids such as 0012, DOIs and volumes are text; the mapping converts real numbers.
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    processEntities: true,
    entityDecoder: xmlEntityDecoder(),
    // One author is still a list of authors.
    maxNestedTags: maxXmlDepth,
    isArray: (_tag, path) => typeof path === 'string' && itemPaths.has(path),
  });
}

/**
 * Entity declarations are the door to expansion bombs and external fetches. The decoder
 * ignores them anyway; the upstream never sends a DOCTYPE, so one is refused outright
 * rather than half-honoured. Where one may stand: after whitespace, processing
 * instructions and comments at the start. Scanned once, front to back (a regular
 * expression for this prolog backtracks exponentially in the number of its parts).
 */
export function hasDoctypeInProlog(text: string): boolean {
  let at = 0;
  for (;;) {
    while (at < text.length && isXmlSpace(text.charCodeAt(at))) at++;
    const end = text.startsWith('<?', at) ? text.indexOf('?>', at + 2) : text.startsWith('<!--', at) ? text.indexOf('-->', at + 4) : -2;
    if (end === -1) return false;
    if (end === -2) return text.slice(at, at + 9).toUpperCase() === '<!DOCTYPE';
    at = end + (text.startsWith('?>', end) ? 2 : 3);
  }
}

const isXmlSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/**
 * How deeply elements may nest. The upstream's documents are four deep (records, record,
 * list, item); the limit refuses a document nested to exhaust the parser's stack.
 */
export const maxXmlDepth = 100;

/**
 * The `record` elements of an upstream XML document, as parsed nodes. Throws an
 * `InputProblem` for malformed XML or any root but `records`.
 */
export function parseXmlRecords(deployment: Deployment, text: string): unknown[] {
  if (hasDoctypeInProlog(text)) throw new InputProblem('DOCTYPE declarations are not accepted');
  const verdict = XMLValidator.validate(text);
  if (verdict !== true) {
    const { msg, line, col } = verdict.err;
    throw new InputProblem(`invalid XML at line ${line}, column ${col}: ${msg}`);
  }
  let document: Record<string, unknown>;
  try {
    document = parserFor(deployment).parse(text) as Record<string, unknown>;
  } catch (error) {
    // The parser's own refusals (elements nested deeper than maxXmlDepth) are the input's fault.
    throw new InputProblem(
      `the XML could not be read: ${error instanceof Error ? error.message : String(error)} (elements may nest at most ${maxXmlDepth} deep)`,
    );
  }
  const roots = Object.keys(document).filter((name) => !name.startsWith('?') && !name.startsWith('#'));
  if (roots.length !== 1 || roots[0] !== 'records') {
    const found = roots.map((root) => `<${root}>`).join(', ') || 'none';
    throw new InputProblem(`expected a <records> root element, found ${found}`);
  }
  const records = document.records;
  if (records === '' || records === undefined) return [];
  if (typeof records !== 'object' || records === null) {
    throw new InputProblem('<records> holds text, not <record> elements');
  }
  const children = Object.keys(records).filter((name) => !name.startsWith(attributePrefix) && name !== textNode);
  const stray = children.find((name) => name !== 'record');
  if (stray) throw new InputProblem(`unexpected element <${stray}> in <records>; expected only <record> elements`);
  return (records as { record?: unknown[] }).record ?? [];
}

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An item of a container: text, or a link's attributes as plain properties. */
function itemValue(value: unknown): unknown {
  if (!isNode(value)) return value;
  const plain: Node = {};
  for (const [name, inner] of Object.entries(value)) {
    if (name.startsWith(attributePrefix)) plain[name.slice(attributePrefix.length)] = inner;
  }
  if (Object.hasOwn(value, textNode) && Object.keys(plain).length === 0) return value[textNode];
  const elements = Object.keys(value).filter((name) => !name.startsWith(attributePrefix) && name !== textNode);
  if (elements.length > 0) throw new InputProblem(`unexpected element <${elements[0]}> inside a list item`);
  return plain;
}

/** One record element's child: text stays text, a container becomes the list of its items. */
function childValue(name: string, value: unknown): unknown {
  if (Array.isArray(value)) throw new InputProblem(`element <${name}> appears more than once`, name);
  if (!isNode(value)) return value;
  const elements = Object.keys(value).filter((key) => !key.startsWith(attributePrefix) && key !== textNode);
  if (elements.length === 0) return value[textNode] ?? '';
  if (Object.hasOwn(value, textNode)) throw new InputProblem(`element <${name}> mixes text and elements`, name);
  if (elements.length > 1) {
    const found = elements.map((element) => `<${element}>`).join(', ');
    throw new InputProblem(`element <${name}> holds different elements (${found}); expected a list of one kind`, name);
  }
  const items = value[elements[0]!];
  try {
    return (Array.isArray(items) ? items : [items]).map(itemValue);
  } catch (problem) {
    throw problem instanceof InputProblem ? new InputProblem(problem.message, name) : problem;
  }
}

/**
 * A parsed `record` element as the plain object the upstream's JSON would hold. Empty
 * containers (`<authors/>`) come out as empty text, which the mapping reads as an empty list.
 */
export function xmlRecordToObject(node: unknown): Record<string, unknown> {
  if (node === '' || node === undefined) return {};
  if (!isNode(node)) throw new InputProblem('<record> holds text, not field elements');
  const object: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(node)) {
    if (name.startsWith(attributePrefix) || name === textNode) continue;
    object[name] = childValue(name, value);
  }
  return object;
}
