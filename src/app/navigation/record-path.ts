import type { Deployment } from '../../deployments/schema';

/** The app's address of a record page (the local server's citation links point here too). */
export function recordPath(deployment: Deployment, repoId: string): string {
  return `/${deployment.slug}/records/${encodeURIComponent(repoId)}`;
}
