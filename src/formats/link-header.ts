/** RFC 8288 Link headers, as the API uses them for paging. */

export type PageRel = 'first' | 'prev' | 'next' | 'last';
export type PageLinks = Partial<Record<string, string>>;

export function formatLinkHeader(links: readonly { rel: string; href: string }[]): string {
  return links.map(({ rel, href }) => `<${href}>; rel="${rel}"`).join(', ');
}

/**
 * Parses a Link header into rel → URL. Tolerates the variations servers send: extra
 * parameters, unquoted rel values, several space-separated rels, relative URLs (resolved
 * against `base`). Anything unparseable is skipped, never thrown. One pass over the header,
 * so its time grows with its length alone, whatever a source sends.
 */
export function parseLinkHeader(header: string | null | undefined, base?: string): PageLinks {
  const links: PageLinks = {};
  if (!header) return links;
  let at = 0;
  while (at < header.length) {
    const open = header.indexOf('<', at);
    if (open === -1) break;
    const close = header.indexOf('>', open + 1);
    if (close === -1) break;
    // A link is `<target>` plus its parameters up to the next comma outside a quoted string
    // (quoted values such as title="a, b; c" may hold commas and semicolons).
    const params = linkParams(header, close + 1);
    at = params.end;
    const rels = (params.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    // Only the first link of each rel counts, so a later one costs no URL parse.
    if (rels.every((name) => Object.hasOwn(links, name))) continue;
    let href: string;
    try {
      const target = header.slice(open + 1, close).trim();
      href = base ? new URL(target, base).href : target;
    } catch {
      continue;
    }
    for (const name of rels) if (!Object.hasOwn(links, name)) links[name] = href;
  }
  return links;
}

/**
 * The first `rel` among a link's parameters (RFC 8288 §3.3: only the first counts), read
 * from `start` to the comma or `<` that ends the link, and where the next link may begin.
 */
function linkParams(header: string, start: number): { rel?: string; end: number } {
  let rel: string | undefined;
  let i = start;
  while (i < header.length && header[i] !== ',' && header[i] !== '<') {
    if (header[i] !== ';') {
      i++;
      continue;
    }
    // One parameter: name, then optionally `=` and a quoted string or a token (BWS allowed).
    let nameEnd = ++i;
    while (nameEnd < header.length && !';,<="'.includes(header[nameEnd]!)) nameEnd++;
    const name = header.slice(i, nameEnd).trim().toLowerCase();
    i = nameEnd;
    let value: string | undefined;
    if (header[i] === '=') {
      i++;
      while (header[i] === ' ' || header[i] === '\t') i++;
      if (header[i] === '"') {
        const valueStart = ++i;
        let escaped = false;
        for (; i < header.length && header[i] !== '"'; i++) {
          if (header[i] === '\\') {
            escaped = true;
            i++;
          }
        }
        const raw = header.slice(valueStart, Math.min(i, header.length));
        value = escaped ? raw.replace(/\\(.)/g, '$1') : raw;
        if (i < header.length) i++;
      } else {
        const valueStart = i;
        while (i < header.length && !';,<"'.includes(header[i]!)) i++;
        value = header.slice(valueStart, i).trim();
      }
    }
    if (name === 'rel' && rel === undefined) rel = value ?? '';
  }
  return { ...(rel !== undefined ? { rel } : {}), end: header[i] === ',' ? i + 1 : i };
}
