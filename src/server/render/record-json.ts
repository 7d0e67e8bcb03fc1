import type { ApiRecord } from '../../deployments/registry';

/** Local resources are stored root-relative; clients get absolute URLs. */
export function absolutizeLinks(record: ApiRecord, origin: string): ApiRecord {
  if (!Array.isArray(record.links)) return record;
  const links = (record.links as { rel: string; href: string }[]).map((link) =>
    typeof link.href === 'string' && link.href.startsWith('/') && !link.href.startsWith('//')
      ? { ...link, href: origin + link.href }
      : link,
  );
  return { ...record, links };
}

// In JSON.stringify's output a quote inside a value is escaped, so `"href":"/` can only be
// a link's href key and the start of its value; `//` (protocol-relative) is left alone.
const rootRelativeHref = /"href":"\/(?!\/)/g;

/**
 * A JSON list written from the records' stored JSON text (`JSON.stringify` of each): the
 * same text as `JSON.stringify(records.map((r) => absolutizeLinks(r, origin)))`, without
 * parsing and re-serialising every record of every page. In parts, a record at a time.
 */
export function* recordsJsonParts(docs: readonly string[], origin: string): Generator<string> {
  const prefix = `"href":${JSON.stringify(origin).slice(0, -1)}/`;
  yield '[';
  for (let i = 0; i < docs.length; i++) yield (i ? ',' : '') + docs[i]!.replace(rootRelativeHref, () => prefix);
  yield ']';
}
