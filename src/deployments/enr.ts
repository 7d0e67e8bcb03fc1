import * as f from './fields';
import { withCommonFacets } from './facets';
import * as p from './params';
import type { Deployment } from './schema';

// The spec describes Dataset or Collection while its example shows Patent.
const productTypes = ['Journal Article', 'Technical Report', 'Conference', 'Patent', 'Dataset'];

export const enr: Deployment = {
  key: 'ENR',
  slug: 'enr',
  name: 'Energy literature reference base',
  version: 'v1',
  basePath: '/api/enr/v1',
  dateFormat: 'MM-DD-YYYY',
  fields: [
    ...f.commonFields,
    ...f.standardOrgFields,
    f.productType,
    f.reportNumber,
    f.articleType,
    f.announcementDate,
    f.submittingSite,
    f.otherIdentifyingNumbers,
    f.links,
  ],
  params: p.withCommonParams(p.standardOrgParams, [p.fulltext, p.doi]),
  extensions: p.listExtensions,
  linkRels: ['citation', 'fulltext'],
  productTypes,
  facets: withCommonFacets(productTypes, { research: ['research_org', 'research_orgs'], sponsor: ['sponsor_org', 'sponsor_orgs'] }),
};
