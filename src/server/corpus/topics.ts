/**
 * Research topics of the synthetic corpus. Each record belongs to one topic, which
 * supplies its subject categories, most of its words, its likely laboratories, sponsors
 * and journals, so a search for a topical word finds records that look alike.
 * Word lists are in frequency-rank order (Zipf-weighted by the pickers).
 */

export interface Topic {
  readonly name: string;
  /** Relative share of records. */
  readonly weight: number;
  /** Subject categories in the upstream's "NN NAME" form. */
  readonly categories: readonly string[];
  readonly nouns: readonly string[];
  readonly adjectives: readonly string[];
  /** Proper names, materials, codes and instruments: the long rare tail of the vocabulary. */
  readonly terms: readonly string[];
  /** Sites and facilities, for dataset and video titles. */
  readonly places: readonly string[];
  /** Journal name and its publisher. */
  readonly journals: readonly (readonly [string, string])[];
  readonly sponsors: readonly string[];
  /** Keys of organizations.ts research organisations that work on the topic. */
  readonly organizations: readonly string[];
  /** Key of the data repository that holds the topic's datasets, if one does. */
  readonly repository?: string;
}

const sc = 'USDOE Office of Science (SC)';
const eere = 'USDOE Office of Energy Efficiency and Renewable Energy (EERE)';

export const topics: readonly Topic[] = [
  {
    name: 'materials',
    weight: 16,
    categories: ['36 MATERIALS SCIENCE', '37 INORGANIC, ORGANIC, PHYSICAL, AND ANALYTICAL CHEMISTRY', '77 NANOSCIENCE AND NANOTECHNOLOGY'],
    nouns: ['alloys', 'microstructure', 'thin films', 'oxide', 'grain boundaries', 'defects', 'nanoparticles', 'corrosion', 'catalyst', 'phase transformation', 'dislocations', 'crystal', 'polymer', 'ceramics', 'fracture', 'diffusion', 'precipitates', 'coatings', 'lattice', 'electrolyte', 'cathode', 'anode', 'superconductivity', 'magnetism', 'fatigue', 'creep', 'texture', 'vacancy', 'interfaces', 'nanowires', 'graphene', 'zeolite', 'spinel', 'segregation', 'sintering', 'annealing', 'welds', 'hardness', 'ductility', 'embrittlement', 'photoluminescence', 'exfoliation'],
    adjectives: ['crystalline', 'amorphous', 'nanostructured', 'ferroelectric', 'thermodynamic', 'metastable', 'epitaxial', 'porous', 'layered', 'ferromagnetic', 'refractory', 'ionic', 'polycrystalline', 'thermomechanical', 'topological', 'high-entropy'],
    terms: ['Inconel 718', 'Ti-6Al-4V', 'LiCoO2', 'MoS2', 'SrTiO3', 'GaN', 'ZnO', 'Cu-Nb', 'NiTi', 'Al-Cu-Mg', 'BaTiO3', 'CeO2', 'hBN', 'La2NiO4', 'MXene', 'Nb3Sn', 'YBCO', 'MgB2', 'FeCrAl', 'Bi2Te3'],
    places: ['Advanced Photon Source', 'Spallation Neutron Source', 'National Synchrotron Light Source II', 'Center for Nanophase Materials Sciences', 'Molecular Foundry'],
    journals: [
      ['Acta Materialia', 'Elsevier'],
      ['Physical Review B', 'American Physical Society (APS)'],
      ['Journal of Materials Chemistry A', 'Royal Society of Chemistry'],
      ['Nano Letters', 'American Chemical Society (ACS)'],
      ['ACS Nano', 'American Chemical Society (ACS)'],
      ['Journal of Applied Physics', 'American Institute of Physics (AIP)'],
      ['Scripta Materialia', 'Elsevier'],
    ],
    sponsors: [`${sc}, Basic Energy Sciences (BES)`, `${sc}, Basic Energy Sciences (BES). Materials Sciences & Engineering Division`, 'USDOE National Nuclear Security Administration (NNSA)', `${eere}, Vehicle Technologies Office`],
    organizations: ['ornl', 'anl', 'ames', 'lbnl', 'snl', 'pnnl', 'nwu', 'mit', 'psu', 'kit'],
    repository: 'mdf',
  },
  {
    name: 'energy',
    weight: 14,
    categories: ['14 SOLAR ENERGY', '17 WIND ENERGY', '25 ENERGY STORAGE', '24 POWER TRANSMISSION AND DISTRIBUTION', '29 ENERGY PLANNING, POLICY, AND ECONOMY', '32 ENERGY CONSERVATION, CONSUMPTION, AND UTILIZATION', '30 DIRECT ENERGY CONVERSION'],
    nouns: ['grid', 'photovoltaic modules', 'batteries', 'wind turbines', 'solar cells', 'storage', 'power electronics', 'inverters', 'load', 'demand response', 'buildings', 'microgrid', 'hydrogen', 'fuel cells', 'electrolyzer', 'heat pumps', 'wake', 'blade', 'irradiance', 'capacity factor', 'resilience', 'transmission', 'forecasting', 'charging', 'salt', 'concentrator', 'receiver', 'tariff', 'curtailment', 'dispatch', 'insulation', 'lighting', 'ventilation', 'thermostat', 'flywheel', 'supercapacitor', 'heliostat'],
    adjectives: ['renewable', 'distributed', 'thermoelectric', 'photovoltaic', 'residential', 'commercial', 'offshore', 'bifacial', 'grid-scale', 'molten', 'levelized', 'techno-economic', 'variable', 'behind-the-meter', 'thermochemical'],
    terms: ['CdTe', 'CIGS', 'SAM', 'ReEDS', 'EnergyPlus', 'OpenDSS', 'HOMER', 'PVWatts', 'WIND Toolkit', 'NSRDB', 'LiFePO4', 'vanadium redox', 'OpenFAST', 'GridLAB-D'],
    places: ['National Wind Technology Center', 'Solar Radiation Research Laboratory', 'Flatirons Campus', 'Block Island', 'Hawaii Island grid', 'ERCOT', 'PJM interconnection'],
    journals: [
      ['Solar Energy Materials and Solar Cells', 'Elsevier'],
      ['Applied Energy', 'Elsevier'],
      ['Energy & Environmental Science', 'Royal Society of Chemistry'],
      ['Joule', 'Cell Press'],
      ['Wind Energy', 'Wiley'],
      ['IEEE Transactions on Power Systems', 'IEEE'],
      ['Journal of Power Sources', 'Elsevier'],
    ],
    sponsors: [eere, `${eere}, Solar Energy Technologies Office`, `${eere}, Wind Energy Technologies Office`, `${eere}, Building Technologies Office`, 'USDOE Office of Electricity (OE)', 'USDOE Advanced Research Projects Agency - Energy (ARPA-E)'],
    organizations: ['nrel', 'snl', 'pnnl', 'anl', 'lbnl', 'ornl', 'gatech', 'utaustin', 'ucb'],
    repository: 'oedi',
  },
  {
    name: 'plasma',
    weight: 8,
    categories: ['70 PLASMA PHYSICS AND FUSION TECHNOLOGY'],
    nouns: ['plasma', 'tokamak', 'divertor', 'confinement', 'turbulence', 'stellarator', 'disruption', 'instability', 'magnetic field', 'pedestal', 'edge', 'impurity', 'heating', 'current drive', 'discharge', 'scrape-off layer', 'neutral beam', 'tearing modes', 'runaway electrons', 'ions', 'electrons', 'sawtooth', 'rotation', 'wall', 'blanket', 'tritium', 'erosion', 'sputtering', 'lithium', 'tungsten', 'reconnection', 'laser', 'implosion', 'ignition', 'gyrokinetics'],
    adjectives: ['toroidal', 'poloidal', 'kinetic', 'resistive', 'collisional', 'magnetohydrodynamic', 'thermonuclear', 'neoclassical', 'high-Z', 'spherical', 'inertial', 'relativistic', 'electrostatic', 'diamagnetic'],
    terms: ['NSTX-U', 'DIII-D', 'ITER', 'JET', 'Alcator C-Mod', 'W7-X', 'KSTAR', 'EAST', 'DECAF', 'DCON', 'XGC', 'GENE', 'TRANSP', 'EFIT', 'NIF', 'OMEGA', 'LAPD', 'MAST-U'],
    places: ['NSTX-U', 'DIII-D National Fusion Facility', 'Alcator C-Mod', 'Large Plasma Device', 'National Ignition Facility', 'Wendelstein 7-X'],
    journals: [
      ['Nuclear Fusion', 'IOP Publishing'],
      ['Physics of Plasmas', 'American Institute of Physics (AIP)'],
      ['Plasma Physics and Controlled Fusion', 'IOP Publishing'],
      ['Review of Scientific Instruments', 'American Institute of Physics (AIP)'],
      ['Fusion Engineering and Design', 'Elsevier'],
      ['Journal of Plasma Physics', 'Cambridge University Press'],
    ],
    sponsors: [`${sc}, Fusion Energy Sciences (FES)`, sc, 'USDOE National Nuclear Security Administration (NNSA)'],
    organizations: ['pppl', 'ornl', 'llnl', 'ga', 'mit', 'ipp', 'lanl', 'uw'],
    repository: 'pppl-data',
  },
  {
    name: 'geothermal',
    weight: 6,
    categories: ['15 GEOTHERMAL ENERGY', '58 GEOSCIENCES'],
    nouns: ['well', 'reservoir', 'fracture network', 'stimulation', 'borehole', 'brine', 'heat flow', 'injection', 'permeability', 'seismicity', 'faults', 'logs', 'drilling', 'core', 'gauge', 'fluid', 'circulation', 'geophysics', 'resistivity', 'magnetotellurics', 'hydrothermal system', 'casing', 'cement', 'tracer', 'scaling', 'salt', 'lithium extraction', 'gravity survey', 'outcrop'],
    adjectives: ['geothermal', 'enhanced', 'hydrothermal', 'subsurface', 'seismic', 'geochemical', 'downhole', 'volcanic', 'sedimentary', 'crystalline', 'hydraulic', 'closed-loop', 'thermal'],
    terms: ['Utah FORGE', 'Well 16B(78)-32', 'Brady', 'Coso', 'Newberry', 'The Geysers', 'Raft River', 'Salton Sea', 'EGS Collab', 'SP-2', 'Fallon', 'Roosevelt Hot Springs', 'TOUGH2', 'GEOPHIRES'],
    places: ['Utah FORGE', 'Brady Hot Springs', 'Coso Geothermal Field', 'Newberry Volcano', 'The Geysers', 'Salton Sea', 'Sanford Underground Research Facility'],
    journals: [
      ['Geothermics', 'Elsevier'],
      ['Geophysical Research Letters', 'American Geophysical Union'],
      ['Journal of Geophysical Research: Solid Earth', 'American Geophysical Union'],
      ['Geothermal Resources Council Transactions', 'Geothermal Resources Council'],
    ],
    sponsors: [`${eere}, Renewable Power Office. Geothermal Technologies Program (EE-4G)`, `${eere}, Geothermal Technologies Office`, eere],
    organizations: ['egi', 'nrel', 'lbnl', 'inl', 'snl', 'uw', 'psu'],
    repository: 'gdr',
  },
  {
    name: 'climate',
    weight: 10,
    categories: ['54 ENVIRONMENTAL SCIENCES', '58 GEOSCIENCES'],
    nouns: ['precipitation', 'aerosols', 'clouds', 'carbon flux', 'permafrost', 'soil', 'watershed', 'sea ice', 'ecosystem', 'vegetation', 'emissions', 'radiation', 'land surface', 'ocean', 'atmosphere', 'drought', 'snowpack', 'wetlands', 'methane', 'evapotranspiration', 'groundwater', 'streamflow', 'canopy', 'roots', 'nutrients', 'wildfire', 'boundary layer', 'convection', 'circulation', 'reanalysis'],
    adjectives: ['atmospheric', 'terrestrial', 'hydrological', 'biogeochemical', 'regional', 'coastal', 'arctic', 'tropical', 'seasonal', 'interannual', 'anthropogenic', 'thermohaline', 'convective', 'microbial'],
    terms: ['E3SM', 'CMIP6', 'ELM', 'NGEE Arctic', 'NGEE Tropics', 'AmeriFlux', 'SPRUCE', 'ARM SGP', 'MOSAiC', 'WRF', 'Utqiaġvik', 'East River', 'CESM', 'MODIS'],
    places: ['Southern Great Plains', 'Utqiaġvik, Alaska', 'East River watershed', 'Manaus, Brazil', 'Seward Peninsula', 'Marcell Experimental Forest', 'Eastern North Atlantic'],
    journals: [
      ['Journal of Climate', 'American Meteorological Society'],
      ['Geophysical Research Letters', 'American Geophysical Union'],
      ['Atmospheric Chemistry and Physics', 'Copernicus Publications'],
      ['Biogeosciences', 'Copernicus Publications'],
      ['Environmental Science & Technology', 'American Chemical Society (ACS)'],
      ['Water Resources Research', 'American Geophysical Union'],
    ],
    sponsors: [`${sc}, Biological and Environmental Research (BER)`, `${sc}, Biological and Environmental Research (BER). Earth and Environmental Systems Science Division`, sc],
    organizations: ['ornl', 'pnnl', 'lbnl', 'anl', 'bnl', 'lanl', 'llnl', 'csu'],
    repository: 'essdive',
  },
  {
    name: 'biology',
    weight: 10,
    categories: ['59 BASIC BIOLOGICAL SCIENCES', '60 APPLIED LIFE SCIENCES', '09 BIOMASS FUELS'],
    nouns: ['genome', 'proteins', 'enzymes', 'gene expression', 'metabolism', 'microbes', 'biomass', 'lignin', 'cellulose', 'transcriptomics', 'pathways', 'plants', 'bacteria', 'fungi', 'algae', 'biofuels', 'fermentation', 'yeast', 'rhizosphere', 'metagenome', 'annotation', 'phenotype', 'mutants', 'lipids', 'membrane', 'sequencing', 'root exudates', 'photosynthesis'],
    adjectives: ['genomic', 'metabolic', 'microbial', 'transgenic', 'enzymatic', 'lignocellulosic', 'thermophilic', 'anaerobic', 'phylogenetic', 'symbiotic', 'proteomic', 'synthetic', 'drought-tolerant'],
    terms: ['Sorghum bicolor', 'Populus trichocarpa', 'Arabidopsis', 'E. coli K-12', 'Clostridium thermocellum', 'Zymomonas mobilis', 'Chlamydomonas', 'switchgrass', 'KBase', 'RNA-seq', 'CRISPR-Cas9', 'DRAM', 'RAST', 'Brachypodium'],
    places: ['Joint Genome Institute', 'Environmental Molecular Sciences Laboratory', 'Great Lakes Bioenergy Research Center', 'Center for Bioenergy Innovation'],
    journals: [
      ['Nature Communications', 'Nature Publishing Group'],
      ['Plant Physiology', 'American Society of Plant Biologists'],
      ['mBio', 'American Society for Microbiology'],
      ['Biotechnology for Biofuels', 'BioMed Central'],
      ['Proceedings of the National Academy of Sciences of the United States of America', 'National Academy of Sciences'],
      ['Metabolic Engineering', 'Elsevier'],
    ],
    sponsors: [`${sc}, Biological and Environmental Research (BER)`, `${eere}, Bioenergy Technologies Office`, sc],
    organizations: ['ornl', 'lbnl', 'pnnl', 'anl', 'nrel', 'cshl', 'wisc', 'csu'],
    repository: 'kbase',
  },
  {
    name: 'nuclear',
    weight: 12,
    categories: ['21 SPECIFIC NUCLEAR REACTORS AND ASSOCIATED PLANTS', '22 GENERAL STUDIES OF NUCLEAR REACTORS', '11 NUCLEAR FUEL CYCLE AND FUEL MATERIALS', '12 MANAGEMENT OF RADIOACTIVE AND NON-RADIOACTIVE WASTES FROM NUCLEAR FACILITIES', '73 NUCLEAR PHYSICS AND RADIATION PHYSICS'],
    nouns: ['reactor', 'fuel', 'cladding', 'neutron flux', 'coolant', 'irradiation', 'waste', 'criticality', 'shielding', 'fission products', 'actinides', 'salt', 'dosimetry', 'spent fuel', 'containment', 'decay heat', 'burnup', 'moderator', 'thermocouple', 'cross sections', 'repository', 'glass', 'isotopes', 'safeguards', 'detector', 'swelling', 'pellet', 'vitrification', 'reprocessing'],
    adjectives: ['nuclear', 'radioactive', 'molten', 'fast', 'light-water', 'pressurized', 'irradiated', 'subcritical', 'radiological', 'high-level', 'accident-tolerant', 'thermomechanical', 'passive', 'small modular'],
    terms: ['U-235', 'Pu-239', 'Cs-137', 'Sr-90', 'Zircaloy-4', 'UO2', 'TRISO', 'HFIR', 'ATR', 'MCNP', 'SCALE', 'RELAP5', 'BISON', 'MOOSE', 'Hanford', 'EBR-II', 'MSRE', 'Am-241'],
    places: ['High Flux Isotope Reactor', 'Advanced Test Reactor', 'Hanford Site', 'Savannah River Site', 'Waste Isolation Pilot Plant', 'Idaho National Laboratory'],
    journals: [
      ['Nuclear Engineering and Design', 'Elsevier'],
      ['Annals of Nuclear Energy', 'Elsevier'],
      ['Journal of Nuclear Materials', 'Elsevier'],
      ['Nuclear Technology', 'Taylor & Francis'],
      ['Physical Review C', 'American Physical Society (APS)'],
      ['Nuclear Science and Engineering', 'Taylor & Francis'],
    ],
    sponsors: ['USDOE Office of Nuclear Energy (NE)', 'USDOE National Nuclear Security Administration (NNSA)', 'USDOE Office of Environmental Management (EM)', `${sc}, Nuclear Physics (NP)`],
    organizations: ['inl', 'ornl', 'anl', 'lanl', 'srs', 'pnnl', 'snl', 'mit', 'jaea', 'cea', 'kurchatov'],
  },
  {
    name: 'computing',
    weight: 9,
    categories: ['97 MATHEMATICS AND COMPUTING', '99 GENERAL AND MISCELLANEOUS'],
    nouns: ['solver', 'code', 'parallel performance', 'GPU', 'mesh', 'machine learning', 'neural network', 'workflow', 'compiler', 'memory', 'preconditioner', 'linear systems', 'visualization', 'exascale', 'software', 'kernels', 'surrogate model', 'checkpointing', 'I/O', 'scheduler', 'sparse matrices', 'quantum computing', 'qubits', 'compression', 'interpolation', 'discretization', 'autotuning', 'cybersecurity'],
    adjectives: ['parallel', 'distributed', 'adaptive', 'high-performance', 'sparse', 'iterative', 'deep', 'portable', 'asynchronous', 'finite-element', 'data-driven', 'physics-informed', 'mixed-precision', 'fault-tolerant'],
    terms: ['Kokkos', 'PETSc', 'Trilinos', 'MPI', 'CUDA', 'HIP', 'SYCL', 'Frontier', 'Aurora', 'Summit', 'Perlmutter', 'HDF5', 'ADIOS2', 'LAMMPS', 'Spack', 'hypre', 'SUNDIALS', 'ParaView'],
    places: ['Oak Ridge Leadership Computing Facility', 'Argonne Leadership Computing Facility', 'National Energy Research Scientific Computing Center'],
    journals: [
      ['Journal of Computational Physics', 'Elsevier'],
      ['SIAM Journal on Scientific Computing', 'Society for Industrial and Applied Mathematics'],
      ['International Journal of High Performance Computing Applications', 'SAGE'],
      ['Computer Physics Communications', 'Elsevier'],
      ['Parallel Computing', 'Elsevier'],
      ['ACM Transactions on Mathematical Software', 'Association for Computing Machinery (ACM)'],
    ],
    sponsors: [`${sc}, Advanced Scientific Computing Research (ASCR)`, 'USDOE National Nuclear Security Administration (NNSA)', `${sc}, Advanced Scientific Computing Research (ASCR). Exascale Computing Project`],
    organizations: ['ornl', 'anl', 'llnl', 'snl', 'lbnl', 'lanl', 'utaustin', 'gatech', 'ethz'],
  },
  {
    name: 'particle',
    weight: 9,
    categories: ['72 PHYSICS OF ELEMENTARY PARTICLES AND FIELDS', '71 CLASSICAL AND QUANTUM MECHANICS, GENERAL PHYSICS', '43 PARTICLE ACCELERATORS', '79 ASTRONOMY AND ASTROPHYSICS'],
    nouns: ['neutrinos', 'collider', 'accelerator', 'beam', 'dark matter', 'quarks', 'gluons', 'detector', 'calorimeter', 'luminosity', 'cross section', 'decay', 'muons', 'hadrons', 'cavity', 'magnets', 'cosmology', 'galaxies', 'supernovae', 'gravitational waves', 'lattice QCD', 'electroweak symmetry', 'jets', 'oscillations', 'bunch', 'emittance', 'undulator'],
    adjectives: ['superconducting', 'relativistic', 'cosmological', 'hadronic', 'leptonic', 'radiofrequency', 'cryogenic', 'perturbative', 'astrophysical', 'longitudinal', 'transverse'],
    terms: ['LHC', 'ATLAS', 'CMS', 'DUNE', 'NOvA', 'MicroBooNE', 'LCLS-II', 'RHIC', 'EIC', 'CEBAF', 'DESI', 'LSST', 'IceCube', 'Mu2e', 'Higgs boson', 'LZ'],
    places: ['Fermilab Booster', 'Large Hadron Collider', 'Relativistic Heavy Ion Collider', 'Linac Coherent Light Source', 'Sanford Underground Research Facility', 'Continuous Electron Beam Accelerator Facility'],
    journals: [
      ['Physical Review D', 'American Physical Society (APS)'],
      ['Physical Review Letters', 'American Physical Society (APS)'],
      ['Journal of High Energy Physics (Online)', 'Springer'],
      ['Nuclear Instruments and Methods in Physics Research. Section A, Accelerators, Spectrometers, Detectors and Associated Equipment', 'Elsevier'],
      ['Physical Review Accelerators and Beams', 'American Physical Society (APS)'],
      ['The Astrophysical Journal (Online)', 'Institute of Physics (IOP)'],
    ],
    sponsors: [`${sc}, High Energy Physics (HEP)`, `${sc}, Nuclear Physics (NP)`, `${sc}, Basic Energy Sciences (BES)`, 'National Science Foundation (NSF)'],
    organizations: ['fnal', 'slac', 'bnl', 'anl', 'lbnl', 'jlab', 'mit', 'ucb'],
  },
  {
    name: 'fossil',
    weight: 6,
    categories: ['01 COAL, LIGNITE, AND PEAT', '02 PETROLEUM', '03 NATURAL GAS', '20 FOSSIL-FUELED POWER PLANTS', '54 ENVIRONMENTAL SCIENCES'],
    nouns: ['carbon capture', 'sequestration', 'shale', 'coal', 'natural gas', 'combustion', 'gasification', 'sorbents', 'wellbore', 'storage formation', 'pipelines', 'leakage', 'flue gas', 'oxy-combustion', 'turbine', 'boiler', 'methane hydrates', 'rare earth elements', 'produced water', 'caprock', 'plume', 'amine solvent'],
    adjectives: ['supercritical', 'geologic', 'post-combustion', 'unconventional', 'oxy-fired', 'porous', 'saline', 'chemical-looping'],
    terms: ['Illinois Basin', 'Marcellus', 'Bakken', 'Permian Basin', 'Petra Nova', 'CarbonSAFE', 'NRAP', 'MOF-74', 'MEA', 'Kemper County'],
    places: ['Illinois Basin – Decatur Project', 'Marcellus Shale Energy and Environment Laboratory', 'Permian Basin', 'Wilsonville Power Systems Development Facility'],
    journals: [
      ['Fuel', 'Elsevier'],
      ['Energy & Fuels', 'American Chemical Society (ACS)'],
      ['International Journal of Greenhouse Gas Control', 'Elsevier'],
      ['SPE Journal', 'Society of Petroleum Engineers'],
    ],
    sponsors: ['USDOE Office of Fossil Energy and Carbon Management (FECM)', 'USDOE Office of Fossil Energy (FE)', 'USDOE Office of Fossil Energy (FE). National Energy Technology Laboratory (NETL)'],
    organizations: ['netl', 'pnnl', 'lbnl', 'llnl', 'ornl', 'psu', 'utaustin', 'wvu'],
  },
];
