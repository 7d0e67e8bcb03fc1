import * as f from './fields';
import { journalFacet, datasetContentTypeFacet, siteFacet, withCommonFacets } from './facets';
import * as p from './params';
import type { Deployment } from './schema';

const productTypes = ['Patent', 'Patent Application'];

export const pat: Deployment = {
  key: 'PAT',
  slug: 'pat',
  name: 'Patents catalog',
  version: 'v1',
  basePath: '/api/pat/v1',
  dateFormat: 'MM/DD/YYYY',
  fields: [...f.commonFields, ...f.standardOrgFields, f.productType, f.reportNumber, ...f.journalFields, f.datasetContentType, f.links],
  params: p.withCommonParams(p.standardOrgParams, [p.fulltext, p.siteOwnershipCode, p.datasetContentType]),
  extensions: p.listExtensions,
  linkRels: ['citation', 'fulltext'],
  productTypes,
  facets: withCommonFacets(productTypes, { research: ['research_org', 'research_orgs'], sponsor: ['sponsor_org', 'sponsor_orgs'] }, [
    journalFacet,
    siteFacet('site_ownership_code'),
    datasetContentTypeFacet,
  ]),
};
