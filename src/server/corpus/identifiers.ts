import type { Random } from './random';

/**
 * Identifier strings in the shapes the upstream records carry them, in ranges no registry
 * issues, so a generated record can never be mistaken for (or cited as) a real one.
 */

/** The DOI test prefix: DOIs under it resolve to nothing real. */
export const demoDoiPrefix = '10.5555';

export function demoDoi(suffix: string): string {
  return `${demoDoiPrefix}/${suffix}`;
}

/** A DOI in one of the two stored forms: bare `10.x/y` or a resolver URL. */
export function doiForm(bare: string, random: Random): string {
  return random.chance(0.55) ? `https://doi.org/${bare}` : bare;
}

const journalDoiShapes: readonly ((random: Random, year: number) => string)[] = [
  (r) => `1.${r.int(4_000_000, 5_199_999)}`,
  (r) => `PhysRev${r.pick(['B', 'C', 'D', 'Letters', 'Applied'])}.${r.int(50, 132)}.${r.digits(6)}`,
  (r, year) => `j.${r.pick(['jnucmat', 'apenergy', 'actamat', 'geothermics', 'fuel', 'jcp', 'nima'])}.${year}.${r.digits(6)}`,
  (r, year) => `1741-4326/${r.pick(['ab', 'ac', 'ad'])}${r.digits(4)}${year % 10}`,
  (r) => `acs.${r.pick(['nanolett', 'est', 'energyfuels', 'jpcc'])}.${r.digits(1)}b${r.digits(5)}`,
  (r) => `s${r.int(41467, 41598)}-0${r.digits(2)}-${r.digits(5)}-${r.pick(['x', 'y', 'z', '1', '2'])}`,
];

export function journalDoi(random: Random, year: number): string {
  return demoDoi(random.pick(journalDoiShapes)(random, year));
}

/**
 * ORCID iDs as the upstream writes them in author strings: 16 digits, no hyphens. ORCID
 * issues none below 0000-0001-5000-0007, so `0000-0000-…` is never a real person's; the
 * check digit is the real ISO 7064 MOD 11-2 one, so the iD is well formed.
 */
export function orcid(random: Random): string {
  const base = `00000000${random.digits(7)}`;
  let total = 0;
  for (const digit of base) total = (total + Number(digit)) * 2;
  const check = (12 - (total % 11)) % 11;
  return `${base}${check === 10 ? 'X' : check}`;
}

/**
 * Patent and application numbers as PAT records put them in report_number, under the
 * country code ZZ, which ISO 3166 leaves to private use and no patent office has.
 */
export function patentNumber(application: boolean, year: number, random: Random): string {
  if (application) return `ZZ ${Math.max(year, 2001)}/0${random.digits(6)} A1`;
  const base = Math.round(3_500_000 + Math.max(0, year - 1970) * 157_000 + random.int(0, 120_000));
  return `ZZ ${String(base).replace(/\B(?=(\d{3})+$)/g, ',')} ${year >= 2001 ? random.pick(['B1', 'B2', 'B2']) : 'A'}`;
}

/** Report numbers in an organisation's scheme (several joined by "; "), marked as demo ones no laboratory issued. */
export function demoReportNumber(numbers: string): string {
  return numbers
    .split('; ')
    .map((number) => `DEMO-${number}`)
    .join('; ');
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
  if (random.chance(0.7))
    parts.push(`TRN: ${random.pick(['US', 'DE', 'FR', 'JP', 'GB', 'XA'])}${String(year % 100).padStart(2, '0')}${random.digits(5)}`);
  if (random.chance(0.2)) parts.push(`CNN: ${random.pick(['AC05-00OR22725', 'AC02-06CH11357', 'AC07-05ID14517'])}`);
  return parts.join('; ');
}

/**
 * A web address under the reserved `.example` top-level domain (RFC 2606), keeping the
 * real host's name visible: a generated record's links lead nowhere real.
 */
export const demoUrl = (host: string, path: string) => `https://${host}.example${path}`;

/** A related identifier in the upstream's "TYPE; Relation; value" form. */
export function relatedIdentifier(random: Random, year: number): string {
  const relation = random.pick(['IsCitedBy', 'References', 'IsSupplementTo', 'IsDerivedFrom', 'IsPartOf']);
  if (random.chance(0.75)) return `DOI; ${relation}; ${journalDoi(random, year)}`;
  const repository = `/${random.pick(['lbl-srg', 'NREL', 'ORNL', 'PPPL-Physics', 'sandialabs'])}/${random.pick(['model', 'toolkit', 'analysis', 'sim'])}-${random.digits(3)}`;
  return `URL; ${relation}; ${demoUrl('github.com', repository)}`;
}
