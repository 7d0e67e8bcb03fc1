import * as f from './fields';
import { journalFacet, hasFulltextFacet, siteFacet, withCommonFacets } from './facets';
import * as p from './params';
import type { Deployment } from './schema';

const productTypes = ['Journal Article', 'Technical Report', 'Conference', 'Thesis/Dissertation', 'Book', 'Dataset'];

export const lit: Deployment = {
  key: 'LIT',
  slug: 'lit',
  name: 'Research literature',
  version: 'v1',
  basePath: '/api/lit/v1',
  dateFormat: 'MM/DD/YYYY',
  fields: [...f.commonFields, ...f.standardOrgFields, f.productType, f.reportNumber, ...f.journalFields, f.nsaNumber, f.links],
  params: p.withCommonParams(p.standardOrgParams, [p.fulltext, p.siteOwnershipCode, p.doi, p.subject, p.hasFulltext]),
  extensions: p.listExtensions,
  linkRels: ['citation', 'fulltext'],
  productTypes,
  facets: withCommonFacets(productTypes, { research: ['research_org', 'research_orgs'], sponsor: ['sponsor_org', 'sponsor_orgs'] }, [
    journalFacet,
    siteFacet('site_ownership_code'),
    hasFulltextFacet,
  ]),
};
