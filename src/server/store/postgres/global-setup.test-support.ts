import type { TestProject } from 'vitest/node';
import { startCluster } from './cluster.test-support';

/**
 * The PostgreSQL conformance projects' throwaway cluster (a primary and one streaming
 * replica), started once before their test files and destroyed after them, here in the
 * main process: worker processes end without running exit hooks.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    pgCluster: { primary: string; replica: string };
  }
}

export default async function setup(project: TestProject) {
  const cluster = await startCluster();
  try {
    const replica = await cluster.addReplica();
    project.provide('pgCluster', { primary: cluster.primary.url, replica: replica.url });
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return () => cluster.destroy();
}
