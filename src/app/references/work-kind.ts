import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { firstKnown } from '../../formats/known-values';
import { roleValue } from '../../formats/record-roles';
import type { ParsedReference } from './reference-input';

/**
 * What kind of work a reference cites and a record describes: an article and the dataset of
 * that article share a title and authors but are two works. One table says, for each kind,
 * the catalogs' product types, the BibTeX and RIS types, and the words a formatted reference
 * writes for it; the rest reads the table.
 */

export interface WorkKind {
  readonly id: string;
  /** "dataset", as in "Dataset of this article". */
  readonly noun: string;
  /** The catalogs' product_type values of this kind. */
  readonly productTypes: readonly string[];
  readonly bibtexTypes: readonly string[];
  readonly risTypes: readonly string[];
  /** What a formatted reference of this kind writes (searched in its text, case-insensitive). */
  readonly cue?: RegExp;
}

/**
 * Where an article appeared, as the styles write it, with or without pages: volume(issue)
 * ("56(4)", "25 (7)"), Vancouver's "2017;118(26):265001" and "2019 May 1;19.", physics'
 * "118, 265001 (2017)" and "25, (2018)", IEEE's "vol. 3".
 */
const articleCues = [
  String.raw`\b\d{1,4}\s?\(\d{1,4}(?:[-–]\d{1,4})?\)(?=[\s.,:;]|$)`,
  String.raw`\b(?:1[6-9]|20)\d\d(?:\s[A-Z][a-z]{2}(?:\s\d{1,2})?)?;\s?\d{1,4}(?:\(\d{1,4}\))?(?=[.:,]|$)`,
  String.raw`\b\d{1,4},\s*(?:[A-Za-z]?\d{2,7}(?:[-–]\d{1,7})?\s*)?\((?:1[6-9]|20)\d\d\)`,
  String.raw`\bvol\.\s*\d{1,4}\b`,
  String.raw`\bJournal of\b`,
];
const articleCue = new RegExp(articleCues.join('|'), 'iu');

export const workKinds: readonly WorkKind[] = [
  {
    id: 'dataset',
    noun: 'dataset',
    productTypes: ['Dataset', 'Collection'],
    bibtexTypes: ['dataset', 'data'],
    risTypes: ['DATA', 'DBASE', 'AGGR'],
    cue: /\[(?:data ?set|data)\]|\bdata ?set\b|\bdata from:/i,
  },
  {
    id: 'software',
    noun: 'software',
    productTypes: ['Software'],
    bibtexTypes: ['software'],
    risTypes: ['COMP'],
    cue: /\[(?:computer )?software\]|\bcomputer software\b|\bcomputer program\b/i,
  },
  {
    id: 'patent',
    noun: 'patent',
    productTypes: ['Patent', 'Patent Application'],
    bibtexTypes: ['patent'],
    risTypes: ['PAT'],
    cue: /\bpatent\b|\bU\.\s?S\.\s?Pat\./i,
  },
  {
    id: 'thesis',
    noun: 'thesis',
    productTypes: ['Thesis/Dissertation'],
    bibtexTypes: ['phdthesis', 'mastersthesis', 'thesis'],
    risTypes: ['THES'],
    cue: /\b(?:ph\.?\s?d\.?|master'?s|doctoral)\s+(?:thesis|dissertation)\b|\bdissertation\b|\bthesis\b/i,
  },
  {
    id: 'report',
    noun: 'report',
    productTypes: ['Technical Report'],
    bibtexTypes: ['techreport', 'report'],
    risTypes: ['RPRT', 'GOVDOC'],
    cue: /\btech(?:nical|\.)\s*rep(?:ort|\.)|\breport no\.|\brep\.\s*no\./i,
  },
  {
    id: 'conference',
    noun: 'conference paper',
    productTypes: ['Conference'],
    bibtexTypes: ['inproceedings', 'conference', 'proceedings'],
    risTypes: ['CONF', 'CPAPER'],
    cue: /\bproceedings\b|\bproc\.\s|\bconference\b|\bsymposium\b|\bworkshop\b/i,
  },
  {
    id: 'book',
    noun: 'book',
    productTypes: ['Book'],
    bibtexTypes: ['book', 'inbook', 'incollection'],
    risTypes: ['BOOK', 'CHAP', 'EBOOK', 'ECHAP'],
  },
  {
    id: 'media',
    noun: 'recording',
    productTypes: ['Video', 'Audio', 'Presentation', 'Interactive Resource'],
    bibtexTypes: [],
    risTypes: ['VIDEO', 'SOUND', 'MPCT', 'SLIDE'],
    cue: /\[(?:video|audio|podcast|video file|presentation slides)\]/i,
  },
  {
    id: 'article',
    noun: 'article',
    productTypes: ['Journal Article'],
    bibtexTypes: ['article'],
    risTypes: ['JOUR', 'JFULL', 'MGZN', 'EJOUR'],
    cue: articleCue,
  },
];

/**
 * Kinds that can be one work under two labels: a conference paper is printed in a journal's
 * proceedings issue, a report is sometimes catalogued as a conference paper.
 */
const compatible = new Set(['article conference', 'conference article', 'report conference', 'conference report']);

export const sameKindOfWork = (a: WorkKind, b: WorkKind) => a.id === b.id || compatible.has(`${a.id} ${b.id}`);

export const workKindById = (id: string) => workKinds.find((kind) => kind.id === id);

/** The kind a record says it is (its product type); undefined where the catalog says none or one the table lacks. */
export function recordWorkKind(deployment: Deployment, record: ApiRecord): WorkKind | undefined {
  const type = firstKnown(roleValue(deployment, record, 'productType'))?.toLowerCase();
  if (!type) return undefined;
  return workKinds.find((kind) => kind.productTypes.some((name) => name.toLowerCase() === type));
}

/**
 * The kind a reference cites: its BibTeX entry type or RIS TY, else the first kind whose
 * words its text writes (in table order, so "[Data set]" wins over a journal-like volume).
 * Undefined when the reference says nothing of it (a bare DOI, a title and a year).
 */
export function referenceWorkKind(reference: ParsedReference): WorkKind | undefined {
  if (reference.kind === 'doi') return undefined;
  if (reference.kind === 'bibtex') {
    const type = /^\s*@\s*([a-zA-Z]+)/.exec(reference.text)?.[1]?.toLowerCase();
    return type ? workKinds.find((kind) => kind.bibtexTypes.includes(type)) : undefined;
  }
  if (reference.kind === 'ris') {
    const type = /^TY {1,2}- ?([A-Z]+)/m.exec(reference.text)?.[1];
    return type ? workKinds.find((kind) => kind.risTypes.includes(type)) : undefined;
  }
  // The title may hold any word ("A dataset of …", "… patent landscape"): look only outside it,
  // and at the descriptors a style puts in its brackets ("[Data set]").
  const title = reference.title ?? '';
  const at = title ? reference.text.indexOf(title) : -1;
  const descriptors = (title.match(/\[[^\]]{0,40}\]/g) ?? []).join(' ');
  const outside = at >= 0 ? `${reference.text.slice(0, at)} ${descriptors} ${reference.text.slice(at + title.length)}` : reference.text;
  return workKinds.find((kind) => kind.cue?.test(outside));
}
