/**
 * Corrections to styles of the CSL repository (public/csl-styles, kept as published) where a
 * style does not write what its own guide does for the records of this mirror. Each is an
 * exact piece of the published file and what replaces it, applied when the file is loaded; a
 * test checks that every piece is still in its file, so a style update cannot drop one silently.
 */

export interface StyleCorrection {
  /** The style file, as its path under the app's base. */
  readonly file: string;
  readonly why: string;
  readonly find: string;
  readonly replace: string;
}

const apsYearDate = '<text macro="year-date" prefix="(" suffix=")"/>';
const aipYear = apsYearDate;
const aipSource =
  '<text variable="container-title" form="short" text-case="title"/><group><text variable="volume" font-weight="bold"/><text variable="issue" prefix="(" suffix=")"/></group>';

export const styleCorrections: readonly StyleCorrection[] = [
  {
    file: 'csl-styles/american-physics-society.csl',
    why: 'an article without pages or number: "118 (2017)", not "118, (2017)"',
    find: `<group delimiter=", "><text variable="volume" font-weight="bold"/><group delimiter=" "><choose><if variable="number"><text variable="number"/></if><else><text variable="page-first" form="short"/></else></choose>${apsYearDate}</group></group>`,
    replace: `<group delimiter=" "><group delimiter=", "><text variable="volume" font-weight="bold"/><choose><if variable="number"><text variable="number"/></if><else><text variable="page-first" form="short"/></else></choose></group>${apsYearDate}</group>`,
  },
  {
    file: 'csl-styles/american-physics-society.csl',
    why: 'a dataset (and other unpublished material) with its repository and year, as the APS guide cites data: "Title, Repository (2017), https://doi.org/…"',
    find: '<!-- Based on arXiv format --><group delimiter=", "><text variable="title" text-case="title" font-style="italic"/>',
    replace: `<!-- Based on arXiv format --><group delimiter=", "><text variable="title" text-case="title" font-style="italic"/><group delimiter=" "><text variable="publisher"/>${apsYearDate}</group>`,
  },
  {
    file: 'csl-styles/american-institute-of-physics.csl',
    why: 'an article without pages: "118(26) (2017)", not "118(26), (2017)"',
    find: `<else><group delimiter=", "><text variable="title" quotes="true"/><group delimiter=" ">${aipSource}</group><group delimiter=" "><text variable="page"/>${aipYear}</group></group></else>`,
    replace: `<else><group delimiter=", "><text variable="title" quotes="true"/><group delimiter=" "><group delimiter=", "><group delimiter=" ">${aipSource}</group><text variable="page"/></group>${aipYear}</group></group></else>`,
  },
  {
    file: 'csl-styles/nature.csl',
    why: 'an article without pages: "Solar Cells 3 (2014)", not "Solar Cells 3, (2014)"',
    find: '<if type="article-journal" match="any"><text variable="volume" font-weight="bold" suffix=","/></if>',
    replace:
      '<if type="article-journal" match="any"><choose><if variable="page"><text variable="volume" font-weight="bold" suffix=","/></if><else><text variable="volume" font-weight="bold"/></else></choose></if>',
  },
];

/** A style file as the app uses it: the published text with its corrections. */
export function correctedStyle(file: string | undefined, xml: string): string {
  let corrected = xml;
  for (const correction of styleCorrections) {
    if (correction.file === file) corrected = corrected.replace(correction.find, () => correction.replace);
  }
  return corrected;
}
