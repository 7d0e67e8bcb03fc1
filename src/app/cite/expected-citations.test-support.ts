import type { ApiRecord } from '../../deployments/registry';
import type { CitationStyleId } from './cite-styles';

/**
 * Citations written by hand from each style's guide, for real records (as the API returns
 * them from data/real, fields a citation uses) and two generated demo records (no real
 * video or patent is shipped): APA 7th edition (Publication Manual, 10.9 data sets, 10.12
 * videos, 11.4 patents), MLA 9th edition, Chicago 17th author-date (14.257 data sets, 14.157
 * patents), Cite Them Right 12th edition (Harvard), Citing Medicine 2nd edition (Vancouver)
 * and the IEEE Reference Guide (2021). All cited as accessed on 23 November 2026.
 *
 * APA's titles are in sentence case: its style file relies on the data being so, and the app
 * converts a headline-case title first, keeping the names the record itself writes
 * (src/formats/sentence-case.ts). Harvard, Vancouver and IEEE also ask for sentence case but
 * keep the record's capitalisation here; MLA and Chicago use headline case. Names are cut to
 * "et al." as each guide says: APA lists up to 20, MLA 2, Chicago 10 (else 7 and et al.),
 * Cite Them Right 3, Vancouver 6, IEEE 6.
 *
 * Where the engine writes something else, `deviations` says what it writes and why it is
 * accepted; the test checks both, so a fixed deviation is noticed.
 */

export const accessedOn = new Date('2026-11-23T12:00:00Z');

export type CslStyleId = 'apa' | 'mla' | 'chicago' | 'harvard' | 'vancouver' | 'ieee';

export interface ExpectedCitations {
  readonly deployment: string;
  readonly why: string;
  readonly record: ApiRecord;
  readonly expected: Readonly<Record<CslStyleId, string>>;
  readonly deviations?: Partial<Readonly<Record<CslStyleId, { readonly engine: string; readonly reason: string }>>>;
}

const pppl = ['Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United States)'];
const osti = (path: string, id: string) => [
  { rel: 'citation', href: `https://www.osti.gov/${path}biblio/${id}` },
  { rel: 'fulltext', href: `https://www.osti.gov/${path}servlets/purl/${id}` },
];

export const expectedCitations: readonly ExpectedCitations[] = [
  {
    deployment: 'DC1',
    why: 'an HTML entity in the title (Alfv&eacute;n); 11 authors',
    record: {
      repo_id: '1562055',
      title: 'Suppression of Alfv&eacute;n modes on NSTX-U with outboard beam injection',
      authors: [
        'Fredrickson, E D',
        'Belova, E V',
        'Battaglia, D J',
        'Bell, R E',
        'Crocker, N A',
        'Darrow, D S',
        'Diallo, A',
        'Gerhardt, S P',
        'Gorelenkov, N N',
        'LeBlanc, B P',
        'Podesta, M',
      ],
      publication_date: '2017-06-01T00:00:00Z',
      doi: 'https://doi.org/10.11578/1562055',
      product_type: 'Dataset',
      research_orgs: pppl,
      site_url: 'http://arks.princeton.edu/ark:/88435/dsp017h149s49b',
      links: osti('dataexplorer/', '1562055'),
    },
    expected: {
      apa: 'Fredrickson, E. D., Belova, E. V., Battaglia, D. J., Bell, R. E., Crocker, N. A., Darrow, D. S., Diallo, A., Gerhardt, S. P., Gorelenkov, N. N., LeBlanc, B. P., & Podesta, M. (2017). Suppression of Alfvén modes on NSTX-U with outboard beam injection [Data set]. Princeton Plasma Physics Lab. (PPPL). https://doi.org/10.11578/1562055',
      mla: 'Fredrickson, E. D., et al. Suppression of Alfvén Modes on NSTX-U with Outboard Beam Injection. Princeton Plasma Physics Lab. (PPPL), 1 June 2017, https://doi.org/10.11578/1562055.',
      chicago:
        'Fredrickson, E. D., E. V. Belova, D. J. Battaglia, R. E. Bell, N. A. Crocker, D. S. Darrow, A. Diallo, et al. 2017. Suppression of Alfvén Modes on NSTX-U with Outboard Beam Injection. Data set. Princeton Plasma Physics Lab. (PPPL). https://doi.org/10.11578/1562055.',
      harvard:
        'Fredrickson, E.D. et al. (2017) Suppression of Alfvén modes on NSTX-U with outboard beam injection [Data set]. Princeton Plasma Physics Lab. (PPPL). Available at: https://doi.org/10.11578/1562055 (Accessed: 23 November 2026).',
      vancouver:
        '1. Fredrickson ED, Belova EV, Battaglia DJ, Bell RE, Crocker NA, Darrow DS, et al. Suppression of Alfvén modes on NSTX-U with outboard beam injection [Internet]. Princeton (NJ): Princeton Plasma Physics Lab. (PPPL); 2017 [cited 2026 Nov 23]. Available from: https://www.osti.gov/dataexplorer/biblio/1562055 doi:10.11578/1562055',
      ieee: '[1] E. D. Fredrickson et al., “Suppression of Alfvén modes on NSTX-U with outboard beam injection,” Princeton Plasma Physics Lab. (PPPL), June 1, 2017. Accessed: Nov. 23, 2026. [Online]. Available: https://doi.org/10.11578/1562055',
    },
  },
  {
    deployment: 'DC1',
    why: 'superscripts in the description (10<sup>13</sup>), which no citation carries; five authors',
    record: {
      repo_id: '1562038',
      title: 'Electron-density-sensitive Line Ratios of Fe XIII–XVI from Laboratory Sources Compared to CHIANTI',
      authors: ['Weller, M E', 'Beiersdorfer, P', 'Soukhanovskii, V A', 'Scotti, F', 'LeBlanc, B P'],
      description: 'an electron density range of (1–4)×10<sup>13</sup> cm<sup>-3</sup>.',
      publication_date: '2018-02-01T00:00:00Z',
      doi: 'https://doi.org/10.11578/1562038',
      product_type: 'Dataset',
      research_orgs: pppl,
      links: osti('dataexplorer/', '1562038'),
    },
    expected: {
      apa: 'Weller, M. E., Beiersdorfer, P., Soukhanovskii, V. A., Scotti, F., & LeBlanc, B. P. (2018). Electron-density-sensitive line ratios of Fe XIII–XVI from laboratory sources compared to CHIANTI [Data set]. Princeton Plasma Physics Lab. (PPPL). https://doi.org/10.11578/1562038',
      mla: 'Weller, M. E., et al. Electron-Density-Sensitive Line Ratios of Fe XIII–XVI from Laboratory Sources Compared to CHIANTI. Princeton Plasma Physics Lab. (PPPL), 1 Feb. 2018, https://doi.org/10.11578/1562038.',
      chicago:
        'Weller, M. E., P. Beiersdorfer, V. A. Soukhanovskii, F. Scotti, and B. P. LeBlanc. 2018. Electron-Density-Sensitive Line Ratios of Fe XIII–XVI from Laboratory Sources Compared to CHIANTI. Data set. Princeton Plasma Physics Lab. (PPPL). https://doi.org/10.11578/1562038.',
      harvard:
        'Weller, M.E. et al. (2018) Electron-density-sensitive Line Ratios of Fe XIII–XVI from Laboratory Sources Compared to CHIANTI [Data set]. Princeton Plasma Physics Lab. (PPPL). Available at: https://doi.org/10.11578/1562038 (Accessed: 23 November 2026).',
      vancouver:
        '1. Weller ME, Beiersdorfer P, Soukhanovskii VA, Scotti F, LeBlanc BP. Electron-density-sensitive Line Ratios of Fe XIII–XVI from Laboratory Sources Compared to CHIANTI [Internet]. Princeton (NJ): Princeton Plasma Physics Lab. (PPPL); 2018 [cited 2026 Nov 23]. Available from: https://www.osti.gov/dataexplorer/biblio/1562038 doi:10.11578/1562038',
      ieee: '[1] M. E. Weller, P. Beiersdorfer, V. A. Soukhanovskii, F. Scotti, and B. P. LeBlanc, “Electron-density-sensitive Line Ratios of Fe XIII–XVI from Laboratory Sources Compared to CHIANTI,” Princeton Plasma Physics Lab. (PPPL), Feb. 1, 2018. Accessed: Nov. 23, 2026. [Online]. Available: https://doi.org/10.11578/1562038',
    },
  },
  {
    deployment: 'DC1',
    why: 'two authors; a data repository as publisher; a repository submission number (not cited)',
    record: {
      repo_id: '2368548',
      title: 'Utah FORGE: Well 16B(78)-32 Pressure-Temperature Logs March - April 2024',
      authors: ['McLennan, John [Energy and Geoscience Institute at the University of Utah]', 'Hughes, Baker'],
      publication_date: '2024-04-20T04:00:00Z',
      doi: 'https://doi.org/10.15121/2368548',
      product_type: 'Dataset',
      research_orgs: ['DOE Geothermal Data Repository', 'Energy and Geoscience Institute at the University of Utah'],
      product_number: '1608',
      site_url: 'https://gdr.openei.org/submissions/1608',
      links: osti('dataexplorer/', '2368548'),
    },
    expected: {
      apa: 'McLennan, J., & Hughes, B. (2024). Utah FORGE: Well 16B(78)-32 pressure-temperature logs March - April 2024 [Data set]. DOE Geothermal Data Repository. https://doi.org/10.15121/2368548',
      mla: 'McLennan, John, and Baker Hughes. Utah FORGE: Well 16B(78)-32 Pressure-Temperature Logs March - April 2024. DOE Geothermal Data Repository, 20 Apr. 2024, https://doi.org/10.15121/2368548.',
      chicago:
        'McLennan, John, and Baker Hughes. 2024. Utah FORGE: Well 16B(78)-32 Pressure-Temperature Logs March - April 2024. Data set. DOE Geothermal Data Repository. https://doi.org/10.15121/2368548.',
      harvard:
        'McLennan, J. and Hughes, B. (2024) Utah FORGE: Well 16B(78)-32 Pressure-Temperature Logs March - April 2024 [Data set]. DOE Geothermal Data Repository. Available at: https://doi.org/10.15121/2368548 (Accessed: 23 November 2026).',
      vancouver:
        '1. McLennan J, Hughes B. Utah FORGE: Well 16B(78)-32 Pressure-Temperature Logs March - April 2024 [Internet]. [place unknown]: DOE Geothermal Data Repository; 2024 [cited 2026 Nov 23]. Available from: https://www.osti.gov/dataexplorer/biblio/2368548 doi:10.15121/2368548',
      ieee: '[1] J. McLennan and B. Hughes, “Utah FORGE: Well 16B(78)-32 Pressure-Temperature Logs March - April 2024,” DOE Geothermal Data Repository, Apr. 20, 2024. Accessed: Nov. 23, 2026. [Online]. Available: https://doi.org/10.15121/2368548',
    },
  },
  {
    deployment: 'DC1',
    why: '16 authors with affiliations and ORCIDs; Unicode subscripts in the title (CO₂); a product number "None"',
    record: {
      repo_id: '2473255',
      title: 'CROCUS High-Frequency Measurements of CO₂, H₂O, Wind, and Temperature at University of Illinois Chicago',
      authors: [
        'Pal, Sujan [Argonne National Laboratory; ESS-DIVE] (ORCID:0000000165030014)',
        'Raut, Bhupendra [Argonne National Laboratory] (ORCID:0000000155981393)',
        'Muradyan, Paytsar [Argonne National Laboratory] (ORCID:0000000269039435)',
        'Tuftedal, Matthew [Argonne National Laboratory] (ORCID:0000000215896474)',
        "O'Brien, Joseph [Argonne National Laboratory] (ORCID:0000000346556912)",
        'Sullivan, Ryan [Argonne National Laboratory] (ORCID:0000000235001842)',
        'Grover, Maxwell [Argonne National Laboratory] (ORCID:0000000203708974)',
        'Jackson, Robert [Argonne National Laboratory] (ORCID:0000000325181234)',
        'Berkelhammer, Max [University of Illinois at Chicago] (ORCID:000000028924716X)',
        'Wawrzyniak, Elizabeth [Argonne National Laboratory] (ORCID:0009000407781118)',
        'Gonzalez-Meler, Miquel [University of Illinois at Chicago]',
        'Cho, Ahram [University of Illinois at Chicago]',
        'McNicol, Gavin [University of Illinois at Chicago] (ORCID:0000000266558045)',
        'Sankaran, Rajesh [Argonne National Laboratory] (ORCID:0000000289112783)',
        'Shahkarami, Sean',
        'Collis, Scott [Argonne National Laboratory] (ORCID:000000022303687X)',
      ],
      publication_date: '2024-01-01T04:00:00Z',
      doi: 'https://doi.org/10.15485/2473255',
      product_type: 'Dataset',
      research_orgs: [
        'Environmental System Science Data Infrastructure for a Virtual Ecosystem',
        'Community Research on Climate and Urban Science Urban Integrated Field Laboratory (CROCUS UIFL)',
      ],
      product_number: 'None',
      site_url: 'https://data.ess-dive.lbl.gov/view/doi:10.15485/2473255',
      links: osti('dataexplorer/', '2473255'),
    },
    expected: {
      apa: 'Pal, S., Raut, B., Muradyan, P., Tuftedal, M., O’Brien, J., Sullivan, R., Grover, M., Jackson, R., Berkelhammer, M., Wawrzyniak, E., Gonzalez-Meler, M., Cho, A., McNicol, G., Sankaran, R., Shahkarami, S., & Collis, S. (2024). CROCUS high-frequency measurements of CO₂, H₂O, wind, and temperature at University of Illinois Chicago [Data set]. Environmental System Science Data Infrastructure for a Virtual Ecosystem. https://doi.org/10.15485/2473255',
      mla: 'Pal, Sujan, et al. CROCUS High-Frequency Measurements of CO₂, H₂O, Wind, and Temperature at University of Illinois Chicago. Environmental System Science Data Infrastructure for a Virtual Ecosystem, 1 Jan. 2024, https://doi.org/10.15485/2473255.',
      chicago:
        'Pal, Sujan, Bhupendra Raut, Paytsar Muradyan, Matthew Tuftedal, Joseph O’Brien, Ryan Sullivan, Maxwell Grover, et al. 2024. CROCUS High-Frequency Measurements of CO₂, H₂O, Wind, and Temperature at University of Illinois Chicago. Data set. Environmental System Science Data Infrastructure for a Virtual Ecosystem. https://doi.org/10.15485/2473255.',
      harvard:
        'Pal, S. et al. (2024) CROCUS High-Frequency Measurements of CO₂, H₂O, Wind, and Temperature at University of Illinois Chicago [Data set]. Environmental System Science Data Infrastructure for a Virtual Ecosystem. Available at: https://doi.org/10.15485/2473255 (Accessed: 23 November 2026).',
      vancouver:
        '1. Pal S, Raut B, Muradyan P, Tuftedal M, O’Brien J, Sullivan R, et al. CROCUS High-Frequency Measurements of CO₂, H₂O, Wind, and Temperature at University of Illinois Chicago [Internet]. [place unknown]: Environmental System Science Data Infrastructure for a Virtual Ecosystem; 2024 [cited 2026 Nov 23]. Available from: https://www.osti.gov/dataexplorer/biblio/2473255 doi:10.15485/2473255',
      ieee: '[1] S. Pal et al., “CROCUS High-Frequency Measurements of CO₂, H₂O, Wind, and Temperature at University of Illinois Chicago,” Environmental System Science Data Infrastructure for a Virtual Ecosystem, Jan. 1, 2024. Accessed: Nov. 23, 2026. [Online]. Available: https://doi.org/10.15485/2473255',
    },
  },
  {
    deployment: 'DC1',
    why: 'an organisation credited among the authors ("the DIII-D team")',
    record: {
      repo_id: '1661171',
      title:
        'Deep convolutional neural networks for multi-scale time-series classification and application to disruption prediction in fusion devices',
      authors: ['Churchill, R M', 'the DIII-D team'],
      publication_date: '2020-05-21T00:00:00Z',
      doi: 'https://doi.org/10.11578/1661171',
      product_type: 'Dataset',
      research_orgs: pppl,
      links: osti('dataexplorer/', '1661171'),
    },
    expected: {
      apa: 'Churchill, R. M., & the DIII-D team. (2020). Deep convolutional neural networks for multi-scale time-series classification and application to disruption prediction in fusion devices [Data set]. Princeton Plasma Physics Lab. (PPPL). https://doi.org/10.11578/1661171',
      mla: 'Churchill, R. M., and the DIII-D team. Deep Convolutional Neural Networks for Multi-Scale Time-Series Classification and Application to Disruption Prediction in Fusion Devices. Princeton Plasma Physics Lab. (PPPL), 21 May 2020, https://doi.org/10.11578/1661171.',
      chicago:
        'Churchill, R. M., and the DIII-D team. 2020. Deep Convolutional Neural Networks for Multi-Scale Time-Series Classification and Application to Disruption Prediction in Fusion Devices. Data set. Princeton Plasma Physics Lab. (PPPL). https://doi.org/10.11578/1661171.',
      harvard:
        'Churchill, R.M. and the DIII-D team (2020) Deep convolutional neural networks for multi-scale time-series classification and application to disruption prediction in fusion devices [Data set]. Princeton Plasma Physics Lab. (PPPL). Available at: https://doi.org/10.11578/1661171 (Accessed: 23 November 2026).',
      vancouver:
        '1. Churchill RM, the DIII-D team. Deep convolutional neural networks for multi-scale time-series classification and application to disruption prediction in fusion devices [Internet]. Princeton (NJ): Princeton Plasma Physics Lab. (PPPL); 2020 [cited 2026 Nov 23]. Available from: https://www.osti.gov/dataexplorer/biblio/1661171 doi:10.11578/1661171',
      ieee: '[1] R. M. Churchill and the DIII-D team, “Deep convolutional neural networks for multi-scale time-series classification and application to disruption prediction in fusion devices,” Princeton Plasma Physics Lab. (PPPL), May 21, 2020. Accessed: Nov. 23, 2026. [Online]. Available: https://doi.org/10.11578/1661171',
    },
    deviations: {
      apa: {
        engine:
          'Churchill, R. M. & the DIII-D team. (2020). Deep convolutional neural networks for multi-scale time-series classification and application to disruption prediction in fusion devices [Data set]. Princeton Plasma Physics Lab. (PPPL). https://doi.org/10.11578/1661171',
        reason: 'citeproc-js writes no serial comma before a literal (organisation) name that follows an inverted personal name',
      },
      mla: {
        engine:
          'Churchill, R. M. and the DIII-D team. Deep Convolutional Neural Networks for Multi-Scale Time-Series Classification and Application to Disruption Prediction in Fusion Devices. Princeton Plasma Physics Lab. (PPPL), 21 May 2020, https://doi.org/10.11578/1661171.',
        reason: 'the same citeproc-js behaviour with a literal second name',
      },
      chicago: {
        engine:
          'Churchill, R. M. and the DIII-D team. 2020. Deep Convolutional Neural Networks for Multi-Scale Time-Series Classification and Application to Disruption Prediction in Fusion Devices. Data set. Princeton Plasma Physics Lab. (PPPL). https://doi.org/10.11578/1661171.',
        reason: 'the same citeproc-js behaviour with a literal second name',
      },
    },
  },
  {
    deployment: 'DC1',
    why: 'an ampersand in the title; a publisher with its location nested in parentheses',
    record: {
      repo_id: '1183461',
      title: 'Natural Energy Laboratory of Hawaii Authority (NELHA): Hawaii Ocean Science & Technology Park; Kailua-Kona, Hawaii',
      authors: ['Olson, K. [National Renewable Energy Laboratory]', 'Andreas, A.'],
      publication_date: '2012-11-01T00:00:00Z',
      doi: 'https://doi.org/10.7799/1183461',
      product_type: 'Dataset',
      research_orgs: ['NREL-DATA (National Renewable Energy Laboratory - Data (NREL-DATA), Golden, CO (United States))'],
      product_number: 'NREL/DA-5500-64450',
      site_url: 'http://www.nlr.gov/midc/nelha/',
      links: osti('dataexplorer/', '1183461'),
    },
    expected: {
      apa: 'Olson, K., & Andreas, A. (2012). Natural Energy Laboratory of Hawaii Authority (NELHA): Hawaii Ocean Science & Technology Park; Kailua-Kona, Hawaii [Data set]. NREL-DATA (National Renewable Energy Laboratory - Data (NREL-DATA)). https://doi.org/10.7799/1183461',
      mla: 'Olson, K., and A. Andreas. Natural Energy Laboratory of Hawaii Authority (NELHA): Hawaii Ocean Science & Technology Park; Kailua-Kona, Hawaii. NREL-DATA (National Renewable Energy Laboratory - Data (NREL-DATA)), 1 Nov. 2012, https://doi.org/10.7799/1183461.',
      chicago:
        'Olson, K., and A. Andreas. 2012. Natural Energy Laboratory of Hawaii Authority (NELHA): Hawaii Ocean Science & Technology Park; Kailua-Kona, Hawaii. Data set. NREL-DATA (National Renewable Energy Laboratory - Data (NREL-DATA)). https://doi.org/10.7799/1183461.',
      harvard:
        'Olson, K. and Andreas, A. (2012) Natural Energy Laboratory of Hawaii Authority (NELHA): Hawaii Ocean Science & Technology Park; Kailua-Kona, Hawaii [Data set]. NREL-DATA (National Renewable Energy Laboratory - Data (NREL-DATA)). Available at: https://doi.org/10.7799/1183461 (Accessed: 23 November 2026).',
      vancouver:
        '1. Olson K, Andreas A. Natural Energy Laboratory of Hawaii Authority (NELHA): Hawaii Ocean Science & Technology Park; Kailua-Kona, Hawaii [Internet]. [place unknown]: NREL-DATA (National Renewable Energy Laboratory - Data (NREL-DATA)); 2012 [cited 2026 Nov 23]. Available from: https://www.osti.gov/dataexplorer/biblio/1183461 doi:10.7799/1183461',
      ieee: '[1] K. Olson and A. Andreas, “Natural Energy Laboratory of Hawaii Authority (NELHA): Hawaii Ocean Science & Technology Park; Kailua-Kona, Hawaii,” NREL-DATA (National Renewable Energy Laboratory - Data (NREL-DATA)), Nov. 1, 2012. Accessed: Nov. 23, 2026. [Online]. Available: https://doi.org/10.7799/1183461',
    },
  },
  {
    deployment: 'LIT',
    why: 'one author; an organisation whose city has no comma before it',
    record: {
      repo_id: '1828290',
      title: 'A KBase Case Study on Genome-wide Transcriptomics and Plant Primary Metabolism in Sorghum',
      authors: ['Kumari, Sunita [Cold Spring Harbor Laboratory Cold Spring Harbor, NY (United States)]'],
      publication_date: '2021-11-01T00:00:00Z',
      doi: 'https://doi.org/10.25982/101788.79/1828290',
      product_type: 'Dataset',
      research_orgs: ['Cold Spring Harbor Laboratory Cold Spring Harbor, NY (United States)'],
      links: osti('', '1828290'),
    },
    expected: {
      apa: 'Kumari, S. (2021). A KBase case study on genome-wide transcriptomics and plant primary metabolism in sorghum [Data set]. Cold Spring Harbor Laboratory. https://doi.org/10.25982/101788.79/1828290',
      mla: 'Kumari, Sunita. A KBase Case Study on Genome-Wide Transcriptomics and Plant Primary Metabolism in Sorghum. Cold Spring Harbor Laboratory, 1 Nov. 2021, https://doi.org/10.25982/101788.79/1828290.',
      chicago:
        'Kumari, Sunita. 2021. A KBase Case Study on Genome-Wide Transcriptomics and Plant Primary Metabolism in Sorghum. Data set. Cold Spring Harbor Laboratory. https://doi.org/10.25982/101788.79/1828290.',
      harvard:
        'Kumari, S. (2021) A KBase Case Study on Genome-wide Transcriptomics and Plant Primary Metabolism in Sorghum [Data set]. Cold Spring Harbor Laboratory. Available at: https://doi.org/10.25982/101788.79/1828290 (Accessed: 23 November 2026).',
      vancouver:
        '1. Kumari S. A KBase Case Study on Genome-wide Transcriptomics and Plant Primary Metabolism in Sorghum [Internet]. [place unknown]: Cold Spring Harbor Laboratory; 2021 [cited 2026 Nov 23]. Available from: https://www.osti.gov/biblio/1828290 doi:10.25982/101788.79/1828290',
      ieee: '[1] S. Kumari, “A KBase Case Study on Genome-wide Transcriptomics and Plant Primary Metabolism in Sorghum,” Cold Spring Harbor Laboratory, Nov. 1, 2021. Accessed: Nov. 23, 2026. [Online]. Available: https://doi.org/10.25982/101788.79/1828290',
    },
  },
  {
    deployment: 'LIT',
    why: 'species names ("sp.") and an ampersand in the title; a university with city, state and country',
    record: {
      repo_id: '1778232',
      title: 'Leisingera sp. ANG59 & Pseudoalteromonas sp. JC28 Genomes Overview',
      authors: ['Suria, Andrea [Univ. of Connecticut, Storrs, CT (United States)] (ORCID:0000000188008717)'],
      publication_date: '2020-01-01T00:00:00Z',
      doi: 'https://doi.org/10.25982/69990.6/1778232',
      product_type: 'Dataset',
      research_orgs: ['University of Connecticut, Storrs, Connecticut, USA'],
      links: osti('', '1778232'),
    },
    expected: {
      apa: 'Suria, A. (2020). Leisingera sp. ANG59 & Pseudoalteromonas sp. JC28 genomes overview [Data set]. University of Connecticut. https://doi.org/10.25982/69990.6/1778232',
      mla: 'Suria, Andrea. Leisingera sp. ANG59 & Pseudoalteromonas sp. JC28 Genomes Overview. University of Connecticut, 1 Jan. 2020, https://doi.org/10.25982/69990.6/1778232.',
      chicago:
        'Suria, Andrea. 2020. Leisingera sp. ANG59 & Pseudoalteromonas sp. JC28 Genomes Overview. Data set. University of Connecticut. https://doi.org/10.25982/69990.6/1778232.',
      harvard:
        'Suria, A. (2020) Leisingera sp. ANG59 & Pseudoalteromonas sp. JC28 Genomes Overview [Data set]. University of Connecticut. Available at: https://doi.org/10.25982/69990.6/1778232 (Accessed: 23 November 2026).',
      vancouver:
        '1. Suria A. Leisingera sp. ANG59 & Pseudoalteromonas sp. JC28 Genomes Overview [Internet]. [place unknown]: University of Connecticut; 2020 [cited 2026 Nov 23]. Available from: https://www.osti.gov/biblio/1778232 doi:10.25982/69990.6/1778232',
      ieee: '[1] A. Suria, “Leisingera sp. ANG59 & Pseudoalteromonas sp. JC28 Genomes Overview,” University of Connecticut, Jan. 1, 2020. Accessed: Nov. 23, 2026. [Online]. Available: https://doi.org/10.25982/69990.6/1778232',
    },
    deviations: {
      mla: {
        engine:
          'Suria, Andrea. Leisingera Sp. ANG59 & Pseudoalteromonas Sp. JC28 Genomes Overview. University of Connecticut, 1 Jan. 2020, https://doi.org/10.25982/69990.6/1778232.',
        reason:
          'headline case capitalises "sp.", which biological nomenclature keeps lower case; the engine cannot tell a species abbreviation from a word',
      },
      chicago: {
        engine:
          'Suria, Andrea. 2020. Leisingera Sp. ANG59 & Pseudoalteromonas Sp. JC28 Genomes Overview. Data set. University of Connecticut. https://doi.org/10.25982/69990.6/1778232.',
        reason: 'the same headline-case rule applied to "sp."',
      },
    },
  },
  {
    deployment: 'DC1',
    why: '16 authors, the first with an apostrophe',
    record: {
      repo_id: '3023808',
      title: 'CROCUS Weather Data at Northwestern University Rooftop',
      authors: [
        "O'Brien, Joseph [Argonne National Laboratory] (ORCID:0000000346556912)",
        'Miller, William [Northwestern University] (ORCID:0000000307506314)',
        'Packman, Aaron [Northwestern University] (ORCID:0000000331724549)',
        'Tuftedal, Matthew [Argonne National Laboratory] (ORCID:0000000215896474)',
        'Wawrzyniak, Elizabeth [Argonne National Laboratory] (ORCID:0009000407781118)',
        'Keeler, Evan [Argonne National Laboratory] (ORCID:0000000305042413)',
        'Grover, Maxwell [Argonne National Laboratory] (ORCID:0000000203708974)',
        'Collis, Scott [Argonne National Laboratory] (ORCID:000000022303687X)',
        'Sankaran, Rajesh [Argonne National Laboratory] (ORCID:0000000289112783)',
        'Beckman, Peter [Northwestern University] (ORCID:0000000294287801)',
        'Ferrier, Nicola [Argonne National Laboratory] (ORCID:0000000314440624)',
        'Shahkarami, Sean [Northwestern University]',
        'Kim, Yongho [Argonne National Laboratory] (ORCID:0000000312579921)',
        'Park, Seongha [Argonne National Laboratory]',
        'Dematties, Dario [Argonne National Laboratory]',
        'Conrad, Neal [Argonne National Laboratory] (ORCID:0009000675623108)',
      ],
      publication_date: '2024-01-01T00:00:00Z',
      doi: 'https://doi.org/10.15485/3023808',
      product_type: 'Dataset',
      research_orgs: ['Community Research on Climate and Urban Science Urban Integrated Field Laboratory (CROCUS UIFL)'],
      links: osti('dataexplorer/', '3023808'),
    },
    expected: {
      apa: 'O’Brien, J., Miller, W., Packman, A., Tuftedal, M., Wawrzyniak, E., Keeler, E., Grover, M., Collis, S., Sankaran, R., Beckman, P., Ferrier, N., Shahkarami, S., Kim, Y., Park, S., Dematties, D., & Conrad, N. (2024). CROCUS weather data at Northwestern University rooftop [Data set]. Community Research on Climate and Urban Science Urban Integrated Field Laboratory (CROCUS UIFL). https://doi.org/10.15485/3023808',
      mla: 'O’Brien, Joseph, et al. CROCUS Weather Data at Northwestern University Rooftop. Community Research on Climate and Urban Science Urban Integrated Field Laboratory (CROCUS UIFL), 1 Jan. 2024, https://doi.org/10.15485/3023808.',
      chicago:
        'O’Brien, Joseph, William Miller, Aaron Packman, Matthew Tuftedal, Elizabeth Wawrzyniak, Evan Keeler, Maxwell Grover, et al. 2024. CROCUS Weather Data at Northwestern University Rooftop. Data set. Community Research on Climate and Urban Science Urban Integrated Field Laboratory (CROCUS UIFL). https://doi.org/10.15485/3023808.',
      harvard:
        'O’Brien, J. et al. (2024) CROCUS Weather Data at Northwestern University Rooftop [Data set]. Community Research on Climate and Urban Science Urban Integrated Field Laboratory (CROCUS UIFL). Available at: https://doi.org/10.15485/3023808 (Accessed: 23 November 2026).',
      vancouver:
        '1. O’Brien J, Miller W, Packman A, Tuftedal M, Wawrzyniak E, Keeler E, et al. CROCUS Weather Data at Northwestern University Rooftop [Internet]. [place unknown]: Community Research on Climate and Urban Science Urban Integrated Field Laboratory (CROCUS UIFL); 2024 [cited 2026 Nov 23]. Available from: https://www.osti.gov/dataexplorer/biblio/3023808 doi:10.15485/3023808',
      ieee: '[1] J. O’Brien et al., “CROCUS Weather Data at Northwestern University Rooftop,” Community Research on Climate and Urban Science Urban Integrated Field Laboratory (CROCUS UIFL), Jan. 1, 2024. Accessed: Nov. 23, 2026. [Online]. Available: https://doi.org/10.15485/3023808',
    },
  },
  {
    deployment: 'DC1',
    why: 'three authors with full given names; an organisation named with its parent laboratory and place',
    record: {
      repo_id: '1959757',
      title: 'Trace Gases, Meteorological Parameters, and GPS data for TRACER-MAP',
      authors: ['Yoon, Subin [ORNL]', 'Flynn, James (ORCID:0000000236021458)', 'Alvarez, Sergio (ORCID:0000000308210857)'],
      publication_date: '2023-03-05T04:00:00Z',
      doi: 'https://doi.org/10.5439/1959757',
      product_type: 'Dataset',
      research_orgs: [
        'Atmospheric Radiation Measurement (ARM) Archive, Oak Ridge National Laboratory (ORNL), Oak Ridge, TN (US)',
        'ARM Data Center, Oak Ridge National Laboratory (ORNL), Oak Ridge, TN (United States)',
      ],
      product_number: 'ARM0725',
      links: osti('dataexplorer/', '1959757'),
    },
    expected: {
      apa: 'Yoon, S., Flynn, J., & Alvarez, S. (2023). Trace Gases, Meteorological Parameters, and GPS data for TRACER-MAP [Data set]. Atmospheric Radiation Measurement (ARM) Archive, Oak Ridge National Laboratory (ORNL). https://doi.org/10.5439/1959757',
      mla: 'Yoon, Subin, et al. Trace Gases, Meteorological Parameters, and GPS Data for TRACER-MAP. Atmospheric Radiation Measurement (ARM) Archive, Oak Ridge National Laboratory (ORNL), 5 Mar. 2023, https://doi.org/10.5439/1959757.',
      chicago:
        'Yoon, Subin, James Flynn, and Sergio Alvarez. 2023. Trace Gases, Meteorological Parameters, and GPS Data for TRACER-MAP. Data set. Atmospheric Radiation Measurement (ARM) Archive, Oak Ridge National Laboratory (ORNL). https://doi.org/10.5439/1959757.',
      harvard:
        'Yoon, S., Flynn, J. and Alvarez, S. (2023) Trace Gases, Meteorological Parameters, and GPS data for TRACER-MAP [Data set]. Atmospheric Radiation Measurement (ARM) Archive, Oak Ridge National Laboratory (ORNL). Available at: https://doi.org/10.5439/1959757 (Accessed: 23 November 2026).',
      vancouver:
        '1. Yoon S, Flynn J, Alvarez S. Trace Gases, Meteorological Parameters, and GPS data for TRACER-MAP [Internet]. Oak Ridge (TN): Atmospheric Radiation Measurement (ARM) Archive, Oak Ridge National Laboratory (ORNL); 2023 [cited 2026 Nov 23]. Available from: https://www.osti.gov/dataexplorer/biblio/1959757 doi:10.5439/1959757',
      ieee: '[1] S. Yoon, J. Flynn, and S. Alvarez, “Trace Gases, Meteorological Parameters, and GPS data for TRACER-MAP,” Atmospheric Radiation Measurement (ARM) Archive, Oak Ridge National Laboratory (ORNL), Mar. 5, 2023. Accessed: Nov. 23, 2026. [Online]. Available: https://doi.org/10.5439/1959757',
    },
  },
  {
    deployment: 'MM',
    why: 'a video: no real one is shipped, so the first MM record the corpus generator makes with seed 10',
    record: {
      repo_id: '50000001',
      title: 'Microbial Design Explained',
      authors: [
        'Wang, T. G.',
        'Wang, K. B. [Argonne National Laboratory (ANL), Argonne, IL (United States)]',
        'Wang, Åsa',
        'Rossi, Andrew F. [Argonne National Laboratory (ANL), Argonne, IL (United States)] (ORCID:0000000076466203)',
        'Martin, John (ORCID:0000000000529554)',
        'Lee, P.',
        'Smith, Daniel C.',
      ],
      publication_date: '2010-09-23T00:00:00Z',
      product_type: 'Video',
      publisher: 'Argonne National Laboratory (ANL), Argonne, IL (United States)',
      research_orgs: ['Argonne National Laboratory (ANL), Argonne, IL (United States)'],
      links: [
        { rel: 'citation', href: '/mm/records/50000001' },
        { rel: 'media', href: '/media/sample-video.mp4' },
      ],
    },
    expected: {
      apa: 'Wang, T. G., Wang, K. B., Wang, Å., Rossi, A. F., Martin, J., Lee, P., & Smith, D. C. (2010, September 23). Microbial design explained [Video]. Argonne National Laboratory (ANL).',
      mla: 'Wang, T. G., et al. Microbial Design Explained. Argonne National Laboratory (ANL), 23 Sept. 2010.',
      chicago:
        'Wang, T. G., K. B. Wang, Åsa Wang, Andrew F. Rossi, John Martin, P. Lee, and Daniel C. Smith. 2010. Microbial Design Explained. Video. Argonne National Laboratory (ANL).',
      harvard: 'Wang, T.G. et al. (2010) Microbial Design Explained [Video]. Argonne National Laboratory (ANL).',
      vancouver:
        '1. Wang TG, Wang KB, Wang Å, Rossi AF, Martin J, Lee P, et al. Microbial Design Explained [video]. Argonne (IL): Argonne National Laboratory (ANL); 2010.',
      ieee: '[1] T. G. Wang et al. Microbial Design Explained. (Sept. 23, 2010).',
    },
    deviations: {
      mla: {
        engine: 'Wang, T. G., et al. Microbial Design Explained. Argonne National Laboratory (ANL), 2010.',
        reason: 'the MLA style file dates a motion picture by its year only; MLA 9 gives the full date of an online video',
      },
      vancouver: {
        engine:
          '1. Wang TG, Wang KB, Wang Å, Rossi AF, Martin J, Lee P, et al. Microbial Design Explained. Argonne (IL): Argonne National Laboratory (ANL); 2010.',
        reason: 'the built-in Vancouver style prints no medium for a motion picture ("[video]")',
      },
      ieee: {
        engine: '[1] T. G. Wang et al., Microbial Design Explained, (Sept. 23, 2010).',
        reason:
          'the IEEE style file joins the author, title and date of an online video with commas, where the guide’s examples use full stops',
      },
    },
  },
  {
    deployment: 'PAT',
    why: 'a patent: no real one is shipped, so the first PAT record the corpus generator makes with seed 10 (its ZZ number is issued by no office)',
    record: {
      repo_id: '50000001',
      title: 'Thermoelectric Batteries Apparatus and Methods of Interoperability',
      authors: [
        'Smith, Jian [Argonne National Laboratory (ANL), Argonne, IL (United States)]',
        'Anderson, Richard [Argonne National Laboratory (ANL), Argonne, IL (United States)] (ORCID:0000000045693593)',
        'Taylor, Marco L.',
        'Yılmaz, James',
        'Goldberg, Wei [Argonne National Laboratory (ANL), Argonne, IL (United States)] (ORCID:0000000094850356)',
      ],
      publication_date: '2015-02-16T04:00:00Z',
      product_type: 'Patent',
      research_orgs: ['Argonne National Laboratory (ANL), Argonne, IL (United States)'],
      report_number: 'ZZ 10,577,330 B1',
      links: [{ rel: 'citation', href: '/pat/records/50000001' }],
    },
    expected: {
      apa: 'Smith, J., Anderson, R., Taylor, M. L., Yılmaz, J., & Goldberg, W. (2015). Thermoelectric batteries apparatus and methods of interoperability (Patent No. ZZ 10,577,330 B1).',
      mla: 'Smith, Jian, et al. Thermoelectric Batteries Apparatus and Methods of Interoperability. ZZ 10,577,330 B1, 16 Feb. 2015.',
      chicago:
        'Smith, Jian, Richard Anderson, Marco L. Taylor, James Yılmaz, and Wei Goldberg. 2015. Thermoelectric Batteries Apparatus and Methods of Interoperability. ZZ Patent 10,577,330 B1, issued February 16, 2015.',
      harvard: 'Smith, J. et al. (2015) Thermoelectric Batteries Apparatus and Methods of Interoperability. ZZ 10,577,330 B1.',
      vancouver:
        '1. Smith J, Anderson R, Taylor ML, Yılmaz J, Goldberg W, inventors. Thermoelectric Batteries Apparatus and Methods of Interoperability. ZZ patent 10,577,330 B1. 2015 Feb 16.',
      ieee: '[1] J. Smith, R. Anderson, M. L. Taylor, J. Yılmaz, and W. Goldberg, “Thermoelectric Batteries Apparatus and Methods of Interoperability,” ZZ Patent 10,577,330 B1, Feb. 16, 2015.',
    },
    deviations: {
      chicago: {
        engine:
          'Smith, Jian, Richard Anderson, Marco L. Taylor, James Yılmaz, and Wei Goldberg. 2015. Thermoelectric Batteries Apparatus and Methods of Interoperability. ZZ 10,577,330 B1, issued February 16, 2015.',
        reason:
          'the record holds the number with its country code ("ZZ 10,577,330 B1"), so the word "Patent" between them cannot be placed without rewriting the number',
      },
      vancouver: {
        engine:
          '1. Smith J, Anderson R, Taylor ML, Yılmaz J, Goldberg W. Thermoelectric Batteries Apparatus and Methods of Interoperability. ZZ 10,577,330 B1, 2015.',
        reason: 'the built-in Vancouver style has no patent layout (Citing Medicine: "inventors", country patent number, full date)',
      },
      ieee: {
        engine:
          '[1] J. Smith, R. Anderson, M. L. Taylor, J. Yılmaz, and W. Goldberg, “Thermoelectric Batteries Apparatus and Methods of Interoperability,” ZZ 10,577,330 B1, Feb. 16, 2015.',
        reason: 'as for Chicago, "Patent" cannot be placed inside the number the record holds',
      },
    },
  },
];

/**
 * Styles of the official CSL repository that physicists and chemists asked for, and rules
 * the six styles above check on a journal article: the AIP Style Manual (4th edition), the
 * Physical Review Style and Notation Guide (APS; Physical Review Letters, a dependent style
 * rendered by the APS's file), Nature's reference guide (a British style: en-GB) and the ACS
 * Guide (2022), on a real dataset and on the journal article that dataset is referenced by,
 * as the upstream's curated relation gives it, cited as a record of LIT (the catalog with
 * journal fields) would be: no record of the mirror holds the article, and the relation names
 * three authors, the journal, volume, issue and DOI, no article number and no abbreviated
 * journal title. Cite Them Right quotes an article's title with single quotes
 * (British usage, en-GB); APA writes it in sentence case, "Alfvén" and the experiment's name
 * kept.
 */
export interface ExpectedStyleCitation {
  readonly deployment: string;
  readonly why: string;
  readonly record: ApiRecord;
  readonly style: CitationStyleId;
  readonly expected: string;
  readonly deviation?: { readonly engine: string; readonly reason: string };
}

const relatedArticle: ApiRecord = {
  repo_id: '1562055-related-article',
  title: 'Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection',
  authors: ['Fredrickson, E. D.', 'Belova, E. V.', 'Battaglia, D. J.'],
  publication_date: '2017-06-01T04:00:00Z',
  doi: 'https://doi.org/10.1103/PhysRevLett.118.265001',
  product_type: 'Journal Article',
  journal_name: 'Physical Review Letters',
  journal_volume: '118',
  journal_issue: '26',
};
/**
 * The same article as the record page's "Cite this work" gives it (related-works.ts): the
 * upstream keeps three authors of a curated work, so the list ends in "et al.".
 */
const relatedArticleCut: ApiRecord = { ...relatedArticle, authors: [...(relatedArticle.authors as string[]), 'et al.'] };
const dataset1562055 = expectedCitations[0]!.record;
const noArticleNumber =
  'the curated relation has no article number (265001) and no abbreviated journal title, so the style prints the full title and leaves the page out';

export const expectedStyleCitations: readonly ExpectedStyleCitation[] = [
  {
    deployment: 'LIT',
    why: 'the related article of 1562055: its title in single quotes',
    record: relatedArticle,
    style: 'harvard',
    expected:
      'Fredrickson, E.D., Belova, E.V. and Battaglia, D.J. (2017) ‘Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection’, Physical Review Letters, 118(26). Available at: https://doi.org/10.1103/PhysRevLett.118.265001 (Accessed: 23 November 2026).',
  },
  {
    deployment: 'LIT',
    why: 'the related article of 1562055: sentence case with a name and a diacritic kept',
    record: relatedArticle,
    style: 'apa',
    expected:
      'Fredrickson, E. D., Belova, E. V., & Battaglia, D. J. (2017). Suppression of Alfvén modes on the National Spherical Torus Experiment Upgrade with outboard beam injection. Physical Review Letters, 118(26), Article 265001. https://doi.org/10.1103/PhysRevLett.118.265001',
    deviation: {
      engine:
        'Fredrickson, E. D., Belova, E. V., & Battaglia, D. J. (2017). Suppression of Alfvén modes on the National Spherical Torus Experiment Upgrade with outboard beam injection. Physical Review Letters, 118(26). https://doi.org/10.1103/PhysRevLett.118.265001',
      reason: noArticleNumber,
    },
  },
  {
    deployment: 'LIT',
    why: 'the related article of 1562055 in Physical Review Letters',
    record: relatedArticle,
    style: 'csl:physical-review-letters',
    expected:
      '[1] E. D. Fredrickson, E. V. Belova, and D. J. Battaglia, Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection, Phys. Rev. Lett. 118, 265001 (2017).',
    deviation: {
      engine:
        '[1] E. D. Fredrickson, E. V. Belova, and D. J. Battaglia, Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection, Physical Review Letters 118 (2017).',
      reason: noArticleNumber,
    },
  },
  {
    deployment: 'LIT',
    why: 'the related article of 1562055 in AIP',
    record: relatedArticle,
    style: 'csl:american-institute-of-physics',
    expected:
      '1 E.D. Fredrickson, E.V. Belova, and D.J. Battaglia, “Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection,” Phys. Rev. Lett. 118(26), 265001 (2017).',
    deviation: {
      engine:
        '1 E.D. Fredrickson, E.V. Belova, and D.J. Battaglia, “Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection,” Physical Review Letters 118(26) (2017).',
      reason: noArticleNumber,
    },
  },
  {
    deployment: 'LIT',
    why: 'the related article of 1562055 in Nature',
    record: relatedArticle,
    style: 'csl:nature',
    expected:
      '1. Fredrickson, E. D., Belova, E. V. & Battaglia, D. J. Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection. Phys. Rev. Lett. 118, 265001 (2017).',
    deviation: {
      engine:
        '1. Fredrickson, E. D., Belova, E. V. & Battaglia, D. J. Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection. Physical Review Letters 118 (2017).',
      reason: noArticleNumber,
    },
  },
  {
    deployment: 'LIT',
    why: 'the related article of 1562055 in ACS',
    record: relatedArticle,
    style: 'csl:american-chemical-society',
    expected:
      '(1) Fredrickson, E. D.; Belova, E. V.; Battaglia, D. J. Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection. Phys. Rev. Lett. 2017, 118 (26), 265001. https://doi.org/10.1103/PhysRevLett.118.265001.',
    deviation: {
      engine:
        '(1) Fredrickson, E. D.; Belova, E. V.; Battaglia, D. J. Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection. Physical Review Letters 2017, 118 (26). https://doi.org/10.1103/PhysRevLett.118.265001.',
      reason: noArticleNumber,
    },
  },
  {
    deployment: 'DC1',
    why: 'dataset 1562055 in Nature (repository, DOI link, year)',
    record: dataset1562055,
    style: 'csl:nature',
    expected:
      '1. Fredrickson, E. D. et al. Suppression of Alfvén modes on NSTX-U with outboard beam injection. Princeton Plasma Physics Lab. (PPPL) https://doi.org/10.11578/1562055 (2017).',
  },
  {
    deployment: 'DC1',
    why: 'dataset 1562055 in Physical Review Letters',
    record: dataset1562055,
    style: 'csl:physical-review-letters',
    expected:
      '[1] E. D. Fredrickson et al., Suppression of Alfvén Modes on NSTX-U with Outboard Beam Injection, Princeton Plasma Physics Lab. (PPPL) (2017), https://doi.org/10.11578/1562055.',
  },
  {
    deployment: 'DC1',
    why: 'dataset 1562055 in AIP',
    record: dataset1562055,
    style: 'csl:american-institute-of-physics',
    expected:
      '1 E.D. Fredrickson, E.V. Belova, D.J. Battaglia, R.E. Bell, N.A. Crocker, D.S. Darrow, A. Diallo, S.P. Gerhardt, N.N. Gorelenkov, B.P. LeBlanc, and M. Podesta, “Suppression of Alfvén modes on NSTX-U with outboard beam injection,” Princeton Plasma Physics Lab. (PPPL) (2017), https://doi.org/10.11578/1562055.',
    deviation: {
      engine:
        '1 E.D. Fredrickson, E.V. Belova, D.J. Battaglia, R.E. Bell, N.A. Crocker, D.S. Darrow, A. Diallo, S.P. Gerhardt, N.N. Gorelenkov, B.P. LeBlanc, and M. Podesta, “Suppression of Alfvén modes on NSTX-U with outboard beam injection,” (2017).',
      reason: 'the AIP style file has no layout for a dataset: it cites neither the repository nor the DOI',
    },
  },
  {
    deployment: 'DC1',
    why: 'dataset 1562055 in ACS',
    record: dataset1562055,
    style: 'csl:american-chemical-society',
    expected:
      '(1) Fredrickson, E. D.; Belova, E. V.; Battaglia, D. J.; Bell, R. E.; Crocker, N. A.; Darrow, D. S.; Diallo, A.; Gerhardt, S. P.; Gorelenkov, N. N.; LeBlanc, B. P.; Podesta, M. Suppression of Alfvén Modes on NSTX-U with Outboard Beam Injection; Princeton Plasma Physics Lab. (PPPL), 2017. https://doi.org/10.11578/1562055.',
    deviation: {
      engine:
        '(1) Fredrickson, E. D.; Belova, E. V.; Battaglia, D. J.; Bell, R. E.; Crocker, N. A.; Darrow, D. S.; Diallo, A.; Gerhardt, S. P.; Gorelenkov, N. N.; LeBlanc, B. P.; Podesta, M. Suppression of Alfvén Modes on NSTX-U with Outboard Beam Injection, 2017. https://doi.org/10.11578/1562055.',
      reason: 'the ACS style file cites a dataset without its publisher (the repository)',
    },
  },
  {
    deployment: 'LIT',
    why: 'the related article of 1562055 as "Cite this work" gives it, its author list cut short, in APA',
    record: relatedArticleCut,
    style: 'apa',
    expected:
      'Fredrickson, E. D., Belova, E. V., Battaglia, D. J., et al. (2017). Suppression of Alfvén modes on the National Spherical Torus Experiment Upgrade with outboard beam injection. Physical Review Letters, 118(26), Article 265001. https://doi.org/10.1103/PhysRevLett.118.265001',
    deviation: {
      engine:
        'Fredrickson, E. D., Belova, E. V., Battaglia, D. J., et al. (2017). Suppression of Alfvén modes on the National Spherical Torus Experiment Upgrade with outboard beam injection. Physical Review Letters, 118(26). https://doi.org/10.1103/PhysRevLett.118.265001',
      reason: noArticleNumber,
    },
  },
  {
    deployment: 'LIT',
    why: 'the related article of 1562055 as "Cite this work" gives it, its author list cut short, in Vancouver',
    record: relatedArticleCut,
    style: 'vancouver',
    expected:
      '1. Fredrickson ED, Belova EV, Battaglia DJ, et al. Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection. Phys Rev Lett. 2017 Jun 1;118(26):265001. doi:10.1103/PhysRevLett.118.265001',
    deviation: {
      engine:
        '1. Fredrickson ED, Belova EV, Battaglia DJ, et al. Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection. Physical Review Letters. 2017 Jun 1;118(26). doi:10.1103/PhysRevLett.118.265001',
      reason: noArticleNumber,
    },
  },
  {
    deployment: 'LIT',
    why: 'the related article of 1562055 as "Cite this work" gives it, its author list cut short, in IEEE',
    record: relatedArticleCut,
    style: 'ieee',
    expected:
      '[1] E. D. Fredrickson, E. V. Belova, D. J. Battaglia, et al., “Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection,” Phys. Rev. Lett., vol. 118, no. 26, Art. no. 265001, June 2017, doi: 10.1103/PhysRevLett.118.265001.',
    deviation: {
      engine:
        '[1] E. D. Fredrickson, E. V. Belova, D. J. Battaglia, et al., “Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection,” Physical Review Letters, vol. 118, no. 26, June 2017, doi: 10.1103/PhysRevLett.118.265001.',
      reason: noArticleNumber,
    },
  },
  {
    deployment: 'LIT',
    why: 'the related article of 1562055 as "Cite this work" gives it, its author list cut short, in Chicago',
    record: relatedArticleCut,
    style: 'chicago',
    expected:
      'Fredrickson, E. D., E. V. Belova, D. J. Battaglia, et al. 2017. “Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection.” Physical Review Letters 118 (26): 265001. https://doi.org/10.1103/PhysRevLett.118.265001.',
    deviation: {
      engine:
        'Fredrickson, E. D., E. V. Belova, D. J. Battaglia, et al. 2017. “Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection.” Physical Review Letters 118 (26). https://doi.org/10.1103/PhysRevLett.118.265001.',
      reason: noArticleNumber,
    },
  },
  {
    deployment: 'LIT',
    why: 'the related article of 1562055 as "Cite this work" gives it, its author list cut short, in Physical Review Letters',
    record: relatedArticleCut,
    style: 'csl:physical-review-letters',
    expected:
      '[1] E. D. Fredrickson, E. V. Belova, D. J. Battaglia, et al., Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection, Phys. Rev. Lett. 118, 265001 (2017).',
    deviation: {
      engine:
        '[1] E. D. Fredrickson, E. V. Belova, D. J. Battaglia, et al., Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection, Physical Review Letters 118 (2017).',
      reason: noArticleNumber,
    },
  },
  {
    deployment: 'LIT',
    why: 'the related article of 1562055 as "Cite this work" gives it, its author list cut short, in Nature',
    record: relatedArticleCut,
    style: 'csl:nature',
    expected:
      '1. Fredrickson, E. D., Belova, E. V., Battaglia, D. J., et al. Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection. Phys. Rev. Lett. 118, 265001 (2017).',
    deviation: {
      engine:
        '1. Fredrickson, E. D., Belova, E. V., Battaglia, D. J., et al. Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection. Physical Review Letters 118 (2017).',
      reason: noArticleNumber,
    },
  },
];
