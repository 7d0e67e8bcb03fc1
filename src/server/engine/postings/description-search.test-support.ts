import { deployments } from '../../../deployments/registry';
import type { TextParam } from '../../../deployments/schema';

/** A parameter searching LIT's descriptions alone, which no deployment has: tokens would then keep lists in that column. */
export const descriptionSearch: TextParam = {
  name: 'description',
  label: 'Description',
  kind: 'text',
  columns: ['description'],
  help: '',
  advanced: true,
};

/** The deployment table with LIT given `descriptionSearch`. */
export const withDescriptionSearch = deployments.map((deployment) =>
  deployment.key === 'LIT' ? { ...deployment, params: [...deployment.params, descriptionSearch] } : deployment,
);
