import * as f from './fields';
import { siteFacet, withCommonFacets } from './facets';
import * as p from './params';
import type { Deployment } from './schema';

const productTypes = ['Dataset', 'Collection', 'Software', 'Interactive Resource'];

export const dc1: Deployment = {
  key: 'DC1',
  slug: 'dc',
  name: 'Dataset catalog',
  version: 'v1',
  basePath: '/api/dc/v1',
  dateFormat: 'MM/DD/YYYY',
  fields: [
    ...f.commonFields,
    f.researchOrgs,
    f.sponsorOrgs,
    f.contributorOrg,
    f.productType,
    f.productNumber,
    f.relatedResource,
    f.relatedIdentifiers,
    f.datasetSize,
    f.siteUrl,
    f.siteOwnershipCode,
    f.links,
  ],
  params: p.withCommonParams(p.standardOrgParams, [p.fulltext, p.siteOwnershipCode]),
  extensions: p.listExtensions,
  linkRels: ['citation', 'fulltext'],
  productTypes,
  impliedProductType: 'Dataset',
  facets: withCommonFacets(productTypes, { research: ['research_org', 'research_orgs'], sponsor: ['sponsor_org', 'sponsor_orgs'] }, [
    siteFacet('site_ownership_code', 'site_ownership_code'),
  ]),
};
