/**
 * What a file says of a generated demo record (the local server's X-Record-Origin and
 * X-Generated-Records extensions), in the field each format keeps for notes: BibTeX
 * `note`, RIS `N1`, CSL-JSON `note`. A reference manager keeps the note with the item.
 */
export const generatedNote = 'Generated demo record: its text and identifiers (DOI, ORCID iDs, numbers) are made up and cite nothing real.';

/** Identifiers of the generated records among some records; empty when none is. */
export type GeneratedIds = ReadonlySet<string>;

export const noGeneratedIds: GeneratedIds = new Set();
