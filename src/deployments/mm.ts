import * as f from './fields';
import { journalFacet, mimeTypeFacet, siteFacet, withCommonFacets } from './facets';
import * as p from './params';
import type { Deployment } from './schema';

const productTypes = ['Video', 'Audio', 'Journal Article', 'Presentation'];

export const mm: Deployment = {
  key: 'MM',
  slug: 'mm',
  name: 'Multimedia catalog',
  version: 'v1',
  basePath: '/api/mm/v1',
  dateFormat: 'MM/DD/YYYY',
  fields: [
    ...f.commonFields,
    f.researchOrgs,
    f.sponsorOrgs,
    f.contributingOrgs,
    f.productType,
    f.reportNumber,
    ...f.journalFields,
    f.mimeType,
    f.links,
  ],
  // The multimedia catalog names its organisation parameters in the plural.
  params: p.withCommonParams(
    [p.sponsorOrg('sponsor_orgs'), p.researchOrg('research_orgs'), p.contributingOrg('contributing_orgs')],
    [p.siteOwnershipCode, p.mimeType],
  ),
  extensions: p.listExtensions,
  linkRels: ['citation', 'media'],
  productTypes,
  facets: withCommonFacets(productTypes, { research: ['research_orgs', 'research_orgs'], sponsor: ['sponsor_orgs', 'sponsor_orgs'] }, [
    journalFacet,
    siteFacet('site_ownership_code'),
    mimeTypeFacet,
  ]),
};
