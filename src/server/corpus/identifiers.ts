import type { Random } from './random';

/** Identifier strings in the shapes the upstream records carry them. */

/** A DOI in one of the two stored forms: bare `10.x/y` or a resolver URL. */
export function doiForm(bare: string, random: Random): string {
  return random.chance(0.55) ? `https://doi.org/${bare}` : bare;
}

const journalDoiShapes: readonly ((random: Random, year: number) => string)[] = [
  (r) => `10.1063/1.${r.int(4_000_000, 5_199_999)}`,
  (r) => `10.1103/PhysRev${r.pick(['B', 'C', 'D', 'Letters', 'Applied'])}.${r.int(50, 132)}.${r.digits(6)}`,
  (r, year) => `10.1016/j.${r.pick(['jnucmat', 'apenergy', 'actamat', 'geothermics', 'fuel', 'jcp', 'nima'])}.${year}.${r.digits(6)}`,
  (r, year) => `10.1088/1741-4326/${r.pick(['ab', 'ac', 'ad'])}${r.digits(4)}${year % 10}`,
  (r) => `10.1021/acs.${r.pick(['nanolett', 'est', 'energyfuels', 'jpcc'])}.${r.digits(1)}b${r.digits(5)}`,
  (r) => `10.1038/s${r.int(41467, 41598)}-0${r.digits(2)}-${r.digits(5)}-${r.pick(['x', 'y', 'z', '1', '2'])}`,
];

export function journalDoi(random: Random, year: number): string {
  return random.pick(journalDoiShapes)(random, year);
}

/** ORCID iDs as the upstream writes them in author strings: 16 digits, no hyphens. */
export function orcid(random: Random): string {
  return `0000000${random.digits(9)}`;
}

/** US patent and application numbers, as PAT records put them in report_number. */
export function patentNumber(application: boolean, year: number, random: Random): string {
  if (application) return `US ${Math.max(year, 2001)}/0${random.digits(6)} A1`;
  // Granted patent numbers grew from about 3.5 million (1970) to 12 million (2024).
  const base = Math.round(3_500_000 + Math.max(0, year - 1970) * 157_000 + random.int(0, 120_000));
  return `US ${String(base).replace(/\B(?=(\d{3})+$)/g, ',')} ${year >= 2001 ? random.pick(['B1', 'B2', 'B2']) : 'A'}`;
}

/** Agency contract numbers: some with the upstream's optional "DE-" prefix. */
export function contractNumber(contract: string, random: Random): string {
  return random.chance(0.3) ? `DE-${contract}` : contract;
}

/** A Nuclear Science Abstracts number, which only records before 1977 have. */
export function nsaNumber(year: number, random: Random): string {
  return `NSA-${year - 1947}-${random.digits(6)}`;
}

/** ENR's other identifying numbers: order and technical-report numbers. */
export function otherIdentifyingNumbers(year: number, random: Random): string {
  const parts: string[] = [];
  if (random.chance(0.6)) parts.push(`ON: DE${String(year % 100).padStart(2, '0')}${random.digits(6)}`);
  if (random.chance(0.7)) parts.push(`TRN: ${random.pick(['US', 'DE', 'FR', 'JP', 'GB', 'XA'])}${String(year % 100).padStart(2, '0')}${random.digits(5)}`);
  if (random.chance(0.2)) parts.push(`CNN: ${random.pick(['AC05-00OR22725', 'AC02-06CH11357', 'AC07-05ID14517'])}`);
  return parts.join('; ');
}

/** A related identifier in the upstream's "TYPE; Relation; value" form. */
export function relatedIdentifier(random: Random, year: number): string {
  const relation = random.pick(['IsCitedBy', 'References', 'IsSupplementTo', 'IsDerivedFrom', 'IsPartOf']);
  if (random.chance(0.75)) return `DOI; ${relation}; ${journalDoi(random, year)}`;
  return `URL; ${relation}; https://github.com/${random.pick(['lbl-srg', 'NREL', 'ORNL', 'PPPL-Physics', 'sandialabs'])}/${random.pick(['model', 'toolkit', 'analysis', 'sim'])}-${random.digits(3)}`;
}
