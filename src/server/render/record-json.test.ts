import { describe, expect, it } from 'vitest';
import { deployments, type ApiRecord } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { absolutizeLinks, recordsJsonParts } from './record-json';

/** The JSON fast path must write exactly what parsing and re-serialising would. */
describe('recordsJsonParts', () => {
  const slow = (records: readonly ApiRecord[], origin: string) => JSON.stringify(records.map((record) => absolutizeLinks(record, origin)));
  const fast = (records: readonly ApiRecord[], origin: string) =>
    [
      ...recordsJsonParts(
        records.map((record) => JSON.stringify(record)),
        origin,
      ),
    ].join('');

  it('equals JSON.stringify of the records with absolute links, for generated records of every deployment', () => {
    for (const deployment of deployments) {
      const records = [...generateRecords(deployment, 60, { seed: 9 })].map((stored) => stored.record);
      for (const origin of ['http://127.0.0.1:8080', 'http://[::1]:9', 'https://mirror.example.org/a$&b"c']) {
        expect(fast(records, origin)).toBe(slow(records, origin));
      }
    }
  });

  it('leaves absolute, protocol-relative and missing links, and text that only looks like a link, alone', () => {
    const base = { repo_id: '1', title: 'A "href":"/x" in a title', description: '"href":"/y"' } as unknown as ApiRecord;
    const records = [
      {
        ...base,
        links: [
          { rel: 'citation', href: 'https://example.org/1' },
          { rel: 'fulltext', href: '//cdn.example.org/1' },
        ],
      },
      {
        ...base,
        links: [
          { rel: 'citation', href: '/' },
          { rel: 'media', href: '/media/a b.mp4' },
        ],
      },
      { ...base },
      { ...base, links: [] },
    ] as ApiRecord[];
    expect(fast(records, 'http://h:1')).toBe(slow(records, 'http://h:1'));
    expect(fast([], 'http://h:1')).toBe('[]');
  });
});
