import { expect } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { ImportError } from './upstream';

/** Shared by the importer's tests: the real upstream files beside the project, and helpers. */

export const realData = new URL('../../../data/real/', import.meta.url);

export const realFiles = {
  geothermal: 'dc-v1-geothermal-and-more-250.json',
  plasma: 'dc-v1-plasma-lab-209.json',
  litJson: 'lit-v1-datasets-40.json',
  litXml: 'lit-v1-datasets-xml-sample.xml',
} as const;

export function deployment(key: string): Deployment {
  const found = deploymentByKey(key);
  if (!found) throw new Error(`no deployment ${key}`);
  return found;
}

/** The ImportError a call throws, failing the test when it throws nothing or something else. */
export function importError(run: () => unknown): ImportError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    return error as ImportError;
  }
  throw new Error('expected an ImportError');
}
