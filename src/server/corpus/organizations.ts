import { demoUrl } from './identifiers';
import type { Random } from './random';

/**
 * Organisations of the synthetic corpus. A research organisation carries what the
 * upstream records tie to it — its submitter code, report-number scheme, contract
 * numbers, country and language — so those fields agree within a record.
 */

export interface ResearchOrg {
  readonly key: string;
  /** As the upstream writes it in research_orgs and author affiliations. */
  readonly name: string;
  /** Submitter code (site_ownership_code / submitting_site / source_id). */
  readonly site: string;
  readonly country: string;
  /** Primary language of its publications where not English. */
  readonly language?: string;
  readonly website: string;
  /** Contract numbers, current first; legacy ones are used for records before 1977. */
  readonly contracts: readonly string[];
  readonly legacyContracts?: readonly string[];
  readonly reportNumber?: (random: Random, year: number) => string;
}

const yy = (year: number) => String(year % 100).padStart(2, '0');

const laboratories: readonly ResearchOrg[] = [
  {
    key: 'snl',
    name: 'Sandia National Laboratories (SNL-NM), Albuquerque, NM (United States)',
    site: 'SNL',
    country: 'United States',
    website: 'www.sandia.gov',
    contracts: ['NA0003525', 'AC04-94AL85000'],
    legacyContracts: ['AC04-76DP00789'],
    reportNumber: (r, year) => `SAND${year}-${r.int(1000, 15999)}${r.pick(['', '', 'R', 'J', 'C'])}`,
  },
  {
    key: 'lanl',
    name: 'Los Alamos National Laboratory (LANL), Los Alamos, NM (United States)',
    site: 'LANL',
    country: 'United States',
    website: 'www.lanl.gov',
    contracts: ['89233218CNA000001', 'AC52-06NA25396'],
    legacyContracts: ['W-7405-ENG-36'],
    reportNumber: (r, year) => (year >= 1990 ? `LA-UR-${yy(year)}-${r.digits(5)}` : `LA-${r.int(1000, 12999)}-MS`),
  },
  {
    key: 'ornl',
    name: 'Oak Ridge National Laboratory (ORNL), Oak Ridge, TN (United States)',
    site: 'ORNL',
    country: 'United States',
    website: 'www.ornl.gov',
    contracts: ['AC05-00OR22725'],
    legacyContracts: ['W-7405-ENG-26'],
    reportNumber: (r, year) =>
      year >= 1980 ? `ORNL/${r.pick(['TM', 'TM', 'SPR', 'LTR'])}-${year}/${r.int(1, 899)}` : `ORNL-${r.int(1000, 5999)}`,
  },
  {
    key: 'anl',
    name: 'Argonne National Laboratory (ANL), Argonne, IL (United States)',
    site: 'ANL',
    country: 'United States',
    website: 'www.anl.gov',
    contracts: ['AC02-06CH11357'],
    legacyContracts: ['W-31-109-ENG-38'],
    reportNumber: (r, year) => `ANL${r.pick(['', '/ESD', '/NE', '/MCS'])}-${yy(year)}/${r.int(1, 60)}`,
  },
  {
    key: 'nrel',
    name: 'National Renewable Energy Laboratory (NREL), Golden, CO (United States)',
    site: 'NREL',
    country: 'United States',
    website: 'www.nrel.gov',
    contracts: ['AC36-08GO28308', 'AC36-99GO10337'],
    reportNumber: (r) =>
      `NREL/${r.pick(['TP', 'TP', 'JA', 'CP', 'PR'])}-${r.pick(['5000', '5400', '5500', '5D00', '6A20', '2C00'])}-${r.int(10000, 89999)}`,
  },
  {
    key: 'pppl',
    name: 'Princeton Plasma Physics Laboratory (PPPL), Princeton, NJ (United States)',
    site: 'PPPL',
    country: 'United States',
    website: 'www.pppl.gov',
    contracts: ['AC02-09CH11466'],
    legacyContracts: ['AC02-76CH03073'],
    reportNumber: (r) => `PPPL-${r.int(1000, 5999)}`,
  },
  {
    key: 'lbnl',
    name: 'Lawrence Berkeley National Laboratory (LBNL), Berkeley, CA (United States)',
    site: 'LBNL',
    country: 'United States',
    website: 'www.lbl.gov',
    contracts: ['AC02-05CH11231'],
    legacyContracts: ['AC03-76SF00098', 'W-7405-ENG-48'],
    reportNumber: (r, year) => (year >= 1995 ? `LBNL-${r.int(100000, 2001999)}` : `LBL-${r.int(10000, 39999)}`),
  },
  {
    key: 'llnl',
    name: 'Lawrence Livermore National Laboratory (LLNL), Livermore, CA (United States)',
    site: 'LLNL',
    country: 'United States',
    website: 'www.llnl.gov',
    contracts: ['AC52-07NA27344'],
    legacyContracts: ['W-7405-ENG-48'],
    reportNumber: (r, year) =>
      year >= 2007
        ? `LLNL-${r.pick(['TR', 'JRNL', 'CONF', 'PROC'])}-${r.int(100000, 859999)}`
        : `UCRL-${r.pick(['', 'JC-', 'ID-'])}${r.int(10000, 99999)}`,
  },
  {
    key: 'pnnl',
    name: 'Pacific Northwest National Laboratory (PNNL), Richland, WA (United States)',
    site: 'PNNL',
    country: 'United States',
    website: 'www.pnnl.gov',
    contracts: ['AC05-76RL01830'],
    legacyContracts: ['AC06-76RL01830'],
    reportNumber: (r) => `PNNL-${r.pick(['', '', 'SA-'])}${r.int(10000, 199999)}`,
  },
  {
    key: 'inl',
    name: 'Idaho National Laboratory (INL), Idaho Falls, ID (United States)',
    site: 'INL',
    country: 'United States',
    website: 'inl.gov',
    contracts: ['AC07-05ID14517'],
    legacyContracts: ['AC07-76ID01570'],
    reportNumber: (r, year) => `INL/${r.pick(['EXT', 'EXT', 'JOU', 'CON', 'RPT'])}-${yy(year)}-${r.int(10000, 79999)}`,
  },
  {
    key: 'bnl',
    name: 'Brookhaven National Laboratory (BNL), Upton, NY (United States)',
    site: 'BNL',
    country: 'United States',
    website: 'www.bnl.gov',
    contracts: ['SC0012704', 'AC02-98CH10886'],
    legacyContracts: ['AC02-76CH00016'],
    reportNumber: (r, year) => `BNL-${r.int(100000, 225999)}-${year}-${r.pick(['JAAM', 'FORE', 'CP', 'IR'])}`,
  },
  {
    key: 'slac',
    name: 'SLAC National Accelerator Laboratory (SLAC), Menlo Park, CA (United States)',
    site: 'SLAC',
    country: 'United States',
    website: 'www6.slac.stanford.edu',
    contracts: ['AC02-76SF00515'],
    reportNumber: (r) => `SLAC-PUB-${r.int(1000, 17999)}`,
  },
  {
    key: 'fnal',
    name: 'Fermi National Accelerator Laboratory (FNAL), Batavia, IL (United States)',
    site: 'FNAL',
    country: 'United States',
    website: 'www.fnal.gov',
    contracts: ['AC02-07CH11359'],
    legacyContracts: ['AC02-76CH03000'],
    reportNumber: (r, year) =>
      `FERMILAB-${r.pick(['PUB', 'PUB', 'CONF', 'THESIS'])}-${yy(year)}-${r.int(1, 799)}-${r.pick(['T', 'E', 'AD', 'PPD', 'ND'])}`,
  },
  {
    key: 'ames',
    name: 'Ames Laboratory (AMES), Ames, IA (United States)',
    site: 'AMES',
    country: 'United States',
    website: 'www.ameslab.gov',
    contracts: ['AC02-07CH11358'],
    legacyContracts: ['W-7405-ENG-82'],
    reportNumber: (r) => `IS-J ${r.int(7000, 10999)}`,
  },
  {
    key: 'srs',
    name: 'Savannah River Site (SRS), Aiken, SC (United States). Savannah River National Laboratory (SRNL)',
    site: 'SRS',
    country: 'United States',
    website: 'www.srnl.gov',
    contracts: ['89303321CEM000080', 'AC09-08SR22470'],
    legacyContracts: ['AC09-76SR00001'],
    reportNumber: (r, year) => `SRNL-STI-${year}-${r.int(100, 99999)}`,
  },
  {
    key: 'netl',
    name: 'National Energy Technology Laboratory (NETL), Pittsburgh, PA, Morgantown, WV, and Albany, OR (United States)',
    site: 'NETL',
    country: 'United States',
    website: 'netl.doe.gov',
    contracts: ['89243318CFE000003', 'FE0004000'],
    reportNumber: (r, year) => `DOE/NETL-${year}/${r.int(1000, 2999)}`,
  },
  {
    key: 'jlab',
    name: 'Thomas Jefferson National Accelerator Facility (TJNAF), Newport News, VA (United States)',
    site: 'JLAB',
    country: 'United States',
    website: 'www.jlab.org',
    contracts: ['AC05-06OR23177'],
    reportNumber: (r, year) => `JLAB-${r.pick(['THY', 'PHY', 'ACC'])}-${yy(year)}-${r.int(1000, 4999)}`,
  },
];

const universityReport = (abbreviation: string) => (r: Random) => `DOE-${abbreviation}-${r.digits(5)}`;
const grants = [
  'SC0019746',
  'SC0021350',
  'FG02-04ER54761',
  'EE0007080',
  'EE0006760',
  'NA0002135',
  'FE0031557',
  'AR0000671',
  'SC0012447',
  'FG02-97ER25308',
];

const universities: readonly ResearchOrg[] = [
  ['nwu', 'Northwestern Univ., Evanston, IL (United States)', 'NU', 'www.northwestern.edu'],
  ['mit', 'Massachusetts Institute of Technology (MIT), Cambridge, MA (United States)', 'MIT', 'web.mit.edu'],
  ['psu', 'Pennsylvania State Univ., University Park, PA (United States)', 'PSU', 'www.psu.edu'],
  ['gatech', 'Georgia Inst. of Technology, Atlanta, GA (United States)', 'GT', 'www.gatech.edu'],
  ['utaustin', 'Univ. of Texas, Austin, TX (United States)', 'UT', 'www.utexas.edu'],
  ['ucb', 'Univ. of California, Berkeley, CA (United States)', 'UCB', 'www.berkeley.edu'],
  ['uw', 'Univ. of Wisconsin, Madison, WI (United States)', 'UW', 'www.wisc.edu'],
  ['wisc', 'Great Lakes Bioenergy Research Center (GLBRC), Madison, WI (United States)', 'GLBRC', 'www.glbrc.org'],
  ['egi', 'Energy and Geoscience Institute at the University of Utah, Salt Lake City, UT (United States)', 'EGI', 'egi.utah.edu'],
  ['csu', 'Colorado State Univ., Fort Collins, CO (United States)', 'CSU', 'www.colostate.edu'],
  ['cshl', 'Cold Spring Harbor Laboratory, Cold Spring Harbor, NY (United States)', 'CSHL', 'www.cshl.edu'],
  ['wvu', 'West Virginia Univ., Morgantown, WV (United States)', 'WVU', 'www.wvu.edu'],
  ['ga', 'General Atomics, San Diego, CA (United States)', 'GA', 'www.ga.com'],
].map(([key, name, abbreviation, website]) => ({
  key: key!,
  name: name!,
  site: 'OSTI',
  country: 'United States',
  website: website!,
  contracts: grants,
  reportNumber: universityReport(abbreviation!),
}));

/** Organisations outside the United States; their records come through ETDE or INIS. */
export const internationalOrgs: readonly ResearchOrg[] = [
  {
    key: 'ipp',
    name: 'Max-Planck-Institut für Plasmaphysik (IPP), Garching (Germany)',
    site: 'ETDE',
    country: 'Germany',
    language: 'German',
    website: 'www.ipp.mpg.de',
    contracts: [],
    reportNumber: (r) => `IPP--${r.int(1, 20)}/${r.int(100, 999)}`,
  },
  {
    key: 'kit',
    name: 'Karlsruher Institut für Technologie (KIT), Karlsruhe (Germany)',
    site: 'ETDE',
    country: 'Germany',
    language: 'German',
    website: 'www.kit.edu',
    contracts: [],
    reportNumber: (r) => `KIT-SR--${r.int(7000, 7999)}`,
  },
  {
    key: 'cea',
    name: "Commissariat à l'énergie atomique et aux énergies alternatives (CEA), Saclay (France)",
    site: 'ETDE',
    country: 'France',
    language: 'French',
    website: 'www.cea.fr',
    contracts: [],
    reportNumber: (r) => `CEA-R--${r.int(5000, 6599)}`,
  },
  {
    key: 'jaea',
    name: 'Japan Atomic Energy Agency (JAEA), Tokai, Ibaraki (Japan)',
    site: 'INIS',
    country: 'Japan',
    language: 'Japanese',
    website: 'www.jaea.go.jp',
    contracts: [],
    reportNumber: (r, year) => `JAEA-${r.pick(['Research', 'Technology', 'Data/Code'])}--${year}-${r.digits(3)}`,
  },
  {
    key: 'kurchatov',
    name: 'National Research Centre "Kurchatov Institute", Moscow (Russian Federation)',
    site: 'INIS',
    country: 'Russian Federation',
    language: 'Russian',
    website: 'www.nrcki.ru',
    contracts: [],
    reportNumber: (r) => `IAE--${r.int(5000, 6999)}/${r.int(1, 14)}`,
  },
  {
    key: 'ciemat',
    name: 'Centro de Investigaciones Energéticas, Medioambientales y Tecnológicas (CIEMAT), Madrid (Spain)',
    site: 'ETDE',
    country: 'Spain',
    language: 'Spanish',
    website: 'www.ciemat.es',
    contracts: [],
    reportNumber: (r) => `CIEMAT--${r.int(1000, 1499)}`,
  },
  {
    key: 'ethz',
    name: 'ETH Zürich (Switzerland)',
    site: 'ETDE',
    country: 'Switzerland',
    language: 'German',
    website: 'ethz.ch',
    contracts: [],
  },
  {
    key: 'iaea',
    name: 'International Atomic Energy Agency (IAEA), Vienna (Austria)',
    site: 'INIS',
    // The upstream records the IAEA itself as the country of its publications.
    country: 'IAEA',
    website: 'www.iaea.org',
    contracts: [],
    reportNumber: (r, year) =>
      `IAEA-${r.pick(['TECDOC', 'CN', 'NR'])}-${r.int(100, 1999)}${year > 2000 ? '' : `; IAEA-SM-${r.int(100, 399)}`}`,
  },
];

export const researchOrgs: readonly ResearchOrg[] = [...laboratories, ...universities, ...internationalOrgs];
export const usResearchOrgs: readonly ResearchOrg[] = [...laboratories, ...universities];

const byKey = new Map(researchOrgs.map((org) => [org.key, org]));

export function researchOrgByKey(key: string): ResearchOrg {
  const org = byKey.get(key);
  if (!org) throw new Error(`Unknown research organisation ${key}`);
  return org;
}

/** Where a topic's datasets live: the DC1 site code, DOI prefix and landing page. */
export interface DataRepository {
  readonly key: string;
  readonly name: string;
  readonly site: string;
  readonly availability: string;
  readonly url: (submission: string) => string;
}

export const dataRepositories: readonly DataRepository[] = [
  {
    key: 'gdr',
    name: 'DOE Geothermal Data Repository',
    site: 'DOE-GDR',
    availability: 'GDRHelp@ee.doe.gov',
    url: (n) => demoUrl('gdr.openei.org', `/submissions/${n}`),
  },
  {
    key: 'oedi',
    name: 'Open Energy Data Initiative (OEDI)',
    site: 'OEDI',
    availability: 'OEDI@nrel.gov',
    url: (n) => demoUrl('data.openei.org', `/submissions/${n}`),
  },
  {
    key: 'pppl-data',
    name: 'Princeton Plasma Physics Laboratory',
    site: 'PPPL',
    availability: '',
    url: (n) => demoUrl('dataspace.princeton.edu', `/handle/88435/dsp01${n}`),
  },
  {
    key: 'essdive',
    name: 'Environmental System Science Data Infrastructure for a Virtual Ecosystem (ESS-DIVE)',
    site: 'ESS-DIVE',
    availability: 'ess-dive-support@lbl.gov',
    url: (n) => demoUrl('data.ess-dive.lbl.gov', `/view/ess-dive-${n}`),
  },
  {
    key: 'kbase',
    name: 'U.S. Department of Energy Systems Biology Knowledgebase',
    site: 'KBASE',
    availability: '',
    url: (n) => demoUrl('narrative.kbase.us', `/narrative/${n}`),
  },
  {
    key: 'mdf',
    name: 'Materials Data Facility (MDF)',
    site: 'MDF',
    availability: '',
    url: (n) => demoUrl('materialsdatafacility.org', `/detail/mdf_${n}`),
  },
];

const repositoryByKey = new Map(dataRepositories.map((repository) => [repository.key, repository]));

export function dataRepositoryByKey(key: string): DataRepository {
  const repository = repositoryByKey.get(key);
  if (!repository) throw new Error(`Unknown data repository ${key}`);
  return repository;
}

/** Sponsors that funded work before the Department of Energy existed (1977). */
export function historicalSponsor(year: number): string | undefined {
  if (year < 1975) return 'US Atomic Energy Commission (AEC)';
  if (year < 1977) return 'US Energy Research and Development Administration (ERDA)';
  return undefined;
}

/** Sponsors any topic may credit besides its own. */
export const generalSponsors = [
  'USDOE',
  'USDOE Office of Science (SC)',
  'USDOE Laboratory Directed Research and Development (LDRD) Program',
  'National Science Foundation (NSF)',
];

export const contributingOrgs = [
  'Energy and Geoscience Institute at the University of Utah',
  'Baker Hughes',
  'Ormat Technologies Inc',
  'General Electric Company',
  'ITER Organization',
  'Westinghouse Electric Company LLC',
  'Electric Power Research Institute (EPRI)',
  'U.S. Geological Survey',
  'National Oceanic and Atmospheric Administration (NOAA)',
  'NASA Goddard Space Flight Center',
  'Joint Genome Institute',
  'CERN',
  'TerraPower',
  'First Solar, Inc.',
  'Siemens Energy',
  'NVIDIA Corporation',
  'IBM Research',
  'Schlumberger-Doll Research',
  'Idaho State University',
  'Fusion Energy Sciences Advisory Committee',
  'ATLAS Collaboration',
  'CMS Collaboration',
  'DUNE Collaboration',
  'Energy Exascale Earth System Model (E3SM) Project',
  'Electricité de France (EDF)',
  'Forschungszentrum Jülich GmbH',
] as const;

/** Availability notes, as the upstream writes them for records of different eras. */
export const availabilityNotes = {
  legacy: ['NTIS, PC A02/MF A01; GPO Dep.', 'NTIS, PC A03/MF A01', 'Dep. NTIS, PC A04/MF A01', 'GPO Dep.; NTIS'],
  modern: ['OSTI as DE', 'Available from the author', 'INIS; OSTI as DE', 'ORNL', 'Available upon request'],
} as const;
