import { describe, expect, test } from 'vitest';
import type { ApiRecord } from '../../deployments/registry';
import { matchConfidence, titleQuery, verdictOf } from './match-score';
import type { ParsedReference } from './reference-input';
import { formattedFacts } from './reference-text';

/** A shipped DC1 record (data/real, 1367870), as the API sends it. */
const record: ApiRecord = {
  repo_id: '1367870',
  title: 'A Reduced Resistive Wall Mode Kinetic Stability Model for Disruption Forecasting',
  authors: ['Berkery, J.W. [Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United States)]', 'Sabbagh, S.A.'],
  publication_date: '2017-05-01T00:00:00Z',
  doi: 'https://doi.org/10.11578/1367870',
};

const formatted = (text: string): ParsedReference => ({ kind: 'formatted', text, ...formattedFacts(text) });

describe('how well a record matches a reference', () => {
  test('the same DOI in any form is certain', () => {
    expect(matchConfidence({ kind: 'doi', text: 'doi:10.11578/1367870', doi: '10.11578/1367870', surnames: [] }, record)).toBe(1);
  });

  test('title, first author and year as written in APA and Vancouver: found', () => {
    const apa = formatted(
      'Berkery, J. W., & Sabbagh, S. A. (2017). A reduced resistive wall mode kinetic stability model for disruption forecasting. PPPL.',
    );
    expect(verdictOf(matchConfidence(apa, record))).toBe('found');
    const vancouver = formatted(
      'Berkery JW, Sabbagh SA. A reduced resistive wall mode kinetic stability model for disruption forecasting. PPPL; 2017.',
    );
    expect(matchConfidence(vancouver, record)).toBe(1);
  });

  test('the right title with another year and author: probably, to be checked', () => {
    const other = formatted('Smith, A. (2009). A reduced resistive wall mode kinetic stability model for disruption forecasting. PPPL.');
    expect(verdictOf(matchConfidence(other, record))).toBe('probable');
  });

  test('the same author and year: a title sharing half its words is for a person to check, another title is not found', () => {
    const sibling = formatted(
      'Berkery, J. W. (2017). Kinetic effects on resistive wall mode stability in the NSTX-U tokamak. Phys. Plasmas.',
    );
    expect(verdictOf(matchConfidence(sibling, record))).toBe('probable');
    const other = formatted('Berkery, J. W. (2017). Neutral beam injection and plasma rotation in spherical tokamaks. Nucl. Fusion.');
    expect(verdictOf(matchConfidence(other, record))).toBe('not-found');
  });

  test('the title search asks for the title’s words with OR, no stop words', () => {
    expect(titleQuery(formatted('Berkery, J. W. (2017). A reduced resistive wall mode model for the disruption. PPPL.'))).toBe(
      'reduced OR resistive OR wall OR mode OR model OR disruption',
    );
  });
});
