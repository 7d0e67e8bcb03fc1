/** RFC 8288 Link headers, as the API uses them for paging. */

export type PageRel = 'first' | 'prev' | 'next' | 'last';
export type PageLinks = Partial<Record<string, string>>;

export function formatLinkHeader(links: readonly { rel: string; href: string }[]): string {
  return links.map(({ rel, href }) => `<${href}>; rel="${rel}"`).join(', ');
}

/**
 * Parses a Link header into rel → URL. Tolerates the variations servers send: extra
 * parameters, unquoted rel values, several space-separated rels, relative URLs (resolved
 * against `base`). Anything unparseable is skipped, never thrown.
 */
export function parseLinkHeader(header: string | null | undefined, base?: string): PageLinks {
  const links: PageLinks = {};
  if (!header) return links;
  // A link is `<target>` plus its parameters up to the next comma outside a quoted string
  // (quoted values such as title="a, b; c" may hold commas and semicolons).
  const linkPattern = /<([^>]*)>((?:[^,"<]|"(?:[^"\\]|\\.)*"?)*)/g;
  // One parameter: name, then optionally `=` and a quoted string or a token (BWS allowed).
  const paramPattern = /;\s*([^\s=;"]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"?|([^;\s"]*)))?/g;
  for (const match of header.matchAll(linkPattern)) {
    const target = match[1]!.trim();
    let relValue: string | undefined;
    for (const param of (match[2] ?? '').matchAll(paramPattern)) {
      // RFC 8288 §3.3: only the first rel parameter counts.
      if (param[1]!.toLowerCase() !== 'rel') continue;
      relValue = param[2] !== undefined ? param[2].replace(/\\(.)/g, '$1') : (param[3] ?? '');
      break;
    }
    const rels = (relValue ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    if (rels.length === 0) continue;
    let href: string;
    try {
      href = base ? new URL(target, base).href : target;
    } catch {
      continue;
    }
    for (const name of rels) if (!Object.hasOwn(links, name)) links[name] = href;
  }
  return links;
}
