import * as f from './fields';
import * as p from './params';
import type { Deployment } from './schema';

export const pat: Deployment = {
  key: 'PAT',
  slug: 'pat',
  name: 'Patents catalog',
  version: 'v1',
  basePath: '/api/pat/v1',
  dateFormat: 'MM/DD/YYYY',
  fields: [
    ...f.commonFields,
    ...f.standardOrgFields,
    f.productType,
    f.reportNumber,
    ...f.journalFields,
    f.datasetContentType,
    f.links,
  ],
  params: p.withCommonParams(p.standardOrgParams, [p.fulltext, p.siteOwnershipCode, p.datasetContentType]),
  linkRels: ['citation', 'fulltext'],
  productTypes: ['Patent', 'Patent Application'],
};
