import { deployments, displayName } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { escapeXml } from '../../formats/text';

/**
 * OpenSearch description documents, one per deployment (`/{slug}/opensearch.xml`), so a
 * browser offers a deployment's search in its address bar; every app page links them all.
 */

export const openSearchType = 'application/opensearchdescription+xml';

export const openSearchPath = (deployment: Deployment) => `/${deployment.slug}/opensearch.xml`;

/** The spec's ShortName is at most 16 characters. */
const shortName = (deployment: Deployment) => `Records ${deployment.key}`;

export function openSearchDocument(deployment: Deployment, origin: string): string {
  const app = `${origin}/${deployment.slug}?q={searchTerms}`;
  const api = `${origin}${deployment.basePath}/records?q={searchTerms}&amp;page={startPage?}`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
  <ShortName>${escapeXml(shortName(deployment))}</ShortName>
  <Description>${escapeXml(`Search ${displayName(deployment)} in Records Explorer`)}</Description>
  <InputEncoding>UTF-8</InputEncoding>
  <Url type="text/html" method="get" template="${escapeXml(app)}"/>
  <Url type="application/json" method="get" template="${api}"/>
  <Url type="${openSearchType}" rel="self" template="${escapeXml(`${origin}${openSearchPath(deployment)}`)}"/>
</OpenSearchDescription>
`;
}

/** The head links of every app page. */
export function openSearchLinks(): string {
  return deployments
    .map(
      (deployment) =>
        `<link rel="search" type="${openSearchType}" title="${escapeXml(`Records Explorer: ${displayName(deployment)}`)}" href="${openSearchPath(deployment)}">`,
    )
    .join('');
}
