import * as f from './fields';
import { datasetContentTypeFacet, withCommonFacets } from './facets';
import * as p from './params';
import type { Deployment } from './schema';

const productTypes = ['Dataset', 'Collection'];

export const dc0: Deployment = {
  key: 'DC0',
  slug: 'dc-v0.1',
  name: 'Dataset catalog',
  version: 'v0.1',
  basePath: '/api/dc/v0.1',
  dateFormat: 'MM-DD-YYYY',
  // Shown as is above the app's DC0 pages, so one whole sentence.
  deprecated: 'Dataset catalog v0.1 is a release candidate, to be deprecated in favour of Dataset catalog v1.',
  // DC0 names its organisations in the singular and as plain strings, and has no links.
  fields: [...f.commonFields, f.sponsorOrg, f.researchOrg, f.contributingOrg, f.productType, f.reportNumber, f.datasetContentType],
  params: p.withCommonParams(p.standardOrgParams, [p.fulltext, p.datasetContentType]),
  extensions: p.listExtensions,
  linkRels: [],
  productTypes,
  impliedProductType: 'Dataset',
  facets: withCommonFacets(productTypes, { research: ['research_org', 'research_org'], sponsor: ['sponsor_org', 'sponsor_org'] }, [
    datasetContentTypeFacet,
  ]),
};
