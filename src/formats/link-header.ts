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
  const linkPattern = /<([^>]*)>((?:\s*;\s*[^;,"]+(?:=(?:"[^"]*"|[^;,"]*))?)*)/g;
  for (const match of header.matchAll(linkPattern)) {
    const target = match[1]!.trim();
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(match[2] ?? '');
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    let href: string;
    try {
      href = base ? new URL(target, base).href : target;
    } catch {
      continue;
    }
    for (const name of rels) links[name] ??= href;
  }
  return links;
}
