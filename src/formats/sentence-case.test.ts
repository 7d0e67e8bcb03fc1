import { describe, expect, it } from 'vitest';
import { properNounsOf, toSentenceCase } from './sentence-case';

describe('toSentenceCase, on the titles of real records', () => {
  it.each([
    [
      'DC1 1562038',
      'Electron-density-sensitive Line Ratios of Fe XIII–XVI from Laboratory Sources Compared to CHIANTI',
      [],
      'Electron-density-sensitive line ratios of Fe XIII–XVI from laboratory sources compared to CHIANTI',
    ],
    [
      'DC1 2368548',
      'Utah FORGE: Well 16B(78)-32 Pressure-Temperature Logs March - April 2024',
      [],
      'Utah FORGE: Well 16B(78)-32 pressure-temperature logs March - April 2024',
    ],
    [
      'DC1 2473255',
      'CROCUS High-Frequency Measurements of CO₂, H₂O, Wind, and Temperature at University of Illinois Chicago',
      ['Berkelhammer, Max [University of Illinois at Chicago]'],
      'CROCUS high-frequency measurements of CO₂, H₂O, wind, and temperature at University of Illinois Chicago',
    ],
    [
      'LIT 1828290',
      'A KBase Case Study on Genome-wide Transcriptomics and Plant Primary Metabolism in Sorghum',
      [],
      'A KBase case study on genome-wide transcriptomics and plant primary metabolism in sorghum',
    ],
    [
      'LIT 1778232',
      'Leisingera sp. ANG59 & Pseudoalteromonas sp. JC28 Genomes Overview',
      [],
      'Leisingera sp. ANG59 & Pseudoalteromonas sp. JC28 genomes overview',
    ],
    [
      'DC1 3023808',
      'CROCUS Weather Data at Northwestern University Rooftop',
      ['Miller, William [Northwestern University]'],
      'CROCUS weather data at Northwestern University rooftop',
    ],
    [
      'DC1 1183461',
      'Natural Energy Laboratory of Hawaii Authority (NELHA): Hawaii Ocean Science & Technology Park; Kailua-Kona, Hawaii',
      [],
      'Natural Energy Laboratory of Hawaii Authority (NELHA): Hawaii Ocean Science & Technology Park; Kailua-Kona, Hawaii',
    ],
  ])('%s', (_record, title, names, expected) => {
    expect(toSentenceCase(title, properNounsOf(names, ''))).toBe(expected);
  });

  it('leaves a title already in sentence case as written', () => {
    for (const title of [
      'Suppression of Alfv&eacute;n modes on NSTX-U with outboard beam injection',
      'Trace Gases, Meteorological Parameters, and GPS data for TRACER-MAP',
      'Deep convolutional neural networks for multi-scale time-series classification',
    ])
      expect(toSentenceCase(title)).toBe(title);
  });

  it('keeps a word with diacritics and a long run of capitalised words (the related article of DC1 1562055)', () => {
    expect(
      toSentenceCase('Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection'),
    ).toBe('Suppression of Alfvén modes on the National Spherical Torus Experiment Upgrade with outboard beam injection');
  });

  it('keeps a name the record’s description capitalises mid-sentence, not a word that only begins a sentence', () => {
    const description = 'In this paper we present data from Tokamak runs. The ability to predict the stability of modes is important.';
    const names = properNounsOf([], description);
    expect(toSentenceCase('Stability of Tokamak Modes in Practice', names)).toBe('Stability of Tokamak modes in practice');
    expect(names.has('The')).toBe(false);
    expect(names.has('In')).toBe(false);
  });
});
