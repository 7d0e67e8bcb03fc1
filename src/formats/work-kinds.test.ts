import { describe, expect, it } from 'vitest';
import { deploymentByKey, deployments } from '../deployments/registry';
import { workKind } from './work-kinds';

/** What kind of work a record is, which decides its CSL type and so how every citation style lays it out. */

const byKey = (key: string) => deploymentByKey(key)!;

describe('the kind of work a record describes', () => {
  it('is read from its product type, most specific words first', () => {
    expect(workKind(byKey('LIT'), { repo_id: '1', product_type: 'Book Chapter' })).toBe('book-chapter');
    expect(workKind(byKey('DC1'), { repo_id: '1', product_type: 'Software' })).toBe('software');
  });

  it('without a product type, is what its catalogue implies: a dataset catalogue’s records are datasets', () => {
    for (const key of ['DC0', 'DC1']) expect(workKind(byKey(key), { repo_id: '1' }), key).toBe('dataset');
  });

  it('without a product type in a catalogue that implies none, is an article when it names a journal, else unknown', () => {
    const unimplied = deployments.filter((deployment) => !deployment.impliedProductType);
    expect(unimplied.map(({ key }) => key)).toContain('LIT');
    for (const deployment of unimplied) expect(workKind(deployment, { repo_id: '1' }), deployment.key).toBe('other');
    expect(workKind(byKey('LIT'), { repo_id: '1', journal_name: 'Energy Policy' })).toBe('journal-article');
  });
});
