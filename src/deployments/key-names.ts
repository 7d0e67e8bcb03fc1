/**
 * Named values the exact-match parameters compare against (case-insensitively).
 * `site` is the code of the submitting organisation: `site_ownership_code` where the
 * deployment has that field, `submitting_site` in ENR, otherwise store-only metadata.
 */
export type KeyName =
  | 'language'
  | 'country'
  | 'site'
  | 'mime_type'
  | 'dataset_content_type'
  | 'doi'
  | 'identifier'
  | 'has_fulltext'
  /** The product type, for the local server's `product_type` extension parameter (facets.ts). */
  | 'product_type'
  /** An author's name without affiliation or ORCID iD, folded as a person's, for the author facet's `author_name` extension parameter (facets.ts). */
  | 'author_name'
  /** A subject folded as a term, for the subject facet's `subject_term` extension parameter (facets.ts). */
  | 'subject_term'
  /** Organisation names folded, for the organisation facets' extension parameters (facets.ts). */
  | 'research_org_name'
  | 'sponsor_org_name'
  /** A journal's name folded as an organisation's, for the journal facet's `journal` extension parameter (facets.ts). */
  | 'journal';

/**
 * How values that people treat as one compare (formats/value-folding.ts): a subject in any
 * case and number, an organisation in any case and punctuation, a person by surname and initials.
 */
export type ValueFolding = 'term' | 'organisation' | 'person';
