import type { Deployment, ParamDef } from '../../deployments/schema';

/**
 * Which parameters the form shows: the main box is the deployment's non-advanced text
 * parameter (`q`); the advanced panel holds every parameter marked advanced.
 */
export function mainParam(deployment: Deployment): ParamDef | undefined {
  return deployment.params.find((param) => !param.advanced && param.kind === 'text');
}

export function formParamNames(deployment: Deployment): string[] {
  const main = mainParam(deployment);
  return deployment.params.filter((param) => param.advanced || param === main).map((param) => param.name);
}
