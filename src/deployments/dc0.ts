import * as f from './fields';
import * as p from './params';
import type { Deployment } from './schema';

export const dc0: Deployment = {
  key: 'DC0',
  slug: 'dc-v0.1',
  name: 'Dataset catalog',
  version: 'v0.1',
  basePath: '/api/dc/v0.1',
  dateFormat: 'MM-DD-YYYY',
  deprecated: 'Release candidate, to be deprecated in favour of the dataset catalog v1.',
  // DC0 names its organisations in the singular and as plain strings, and has no links.
  fields: [
    ...f.commonFields,
    f.sponsorOrg,
    f.researchOrg,
    f.contributingOrg,
    f.productType,
    f.reportNumber,
    f.datasetContentType,
  ],
  params: p.withCommonParams(p.standardOrgParams, [p.fulltext, p.datasetContentType]),
  linkRels: [],
  productTypes: ['Dataset', 'Collection'],
};
