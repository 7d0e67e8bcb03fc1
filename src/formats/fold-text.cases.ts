/**
 * The folding cases both stores and the highlighter are tested with (fold-text.ts): a few
 * records, and for each search the records it must find — no more, no fewer.
 */

export interface FoldRecord {
  readonly id: string;
  readonly title: string;
  readonly authors: readonly string[];
}

export const foldRecords: readonly FoldRecord[] = [
  { id: '3001', title: 'Crocus field emissions of CO₂ in spring', authors: ['Okafor, Chidi'] },
  { id: '3002', title: 'ﬁnite element ﬂow solvers', authors: ['Lindqvist, Sara'] },
  { id: '3003', title: 'Ｔｏｋａｍａｋ ｄｉｓｒｕｐｔｉｏｎ statistics', authors: ['Nakamura, Yui'] },
  { id: '3004', title: '核融合プラズマの閉じ込め研究', authors: ['山田, 太郎'] },
  { id: '3005', title: '核融合反应堆材料', authors: ['Li, Wei'] },
  { id: '3006', title: '핵융합 플라즈마 연구', authors: ['Kim, Minji'] },
  { id: '3007', title: 'Über Wärmeleitung in Gasen', authors: ['Müller, Hans'] },
  { id: '3008', title: 'Heat conduction in gases', authors: ['Mueller, Karl'] },
  { id: '3009', title: 'Conduction of heat in metals', authors: ['Muller, Anne'] },
  { id: '3010', title: 'Michal and the thermal pump', authors: ['Michal, Jan'] },
  { id: '3011', title: 'Fredrickson on kink modes', authors: ['Fredrickson, E.D.'] },
  { id: '3012', title: 'Fishbone modes revisited', authors: ['Fredrickson, Eric D.'] },
  { id: '3013', title: 'Edge modes survey', authors: ['Fredrickson, Anna'] },
  { id: '3014', title: 'Internal modes survey', authors: ['Fredrickson, E. D. [PPPL]'] },
];

export interface FoldCase {
  /** The search parameter and value. */
  readonly param: 'q' | 'title' | 'author';
  readonly value: string;
  readonly found: readonly string[];
}

export const foldCases: readonly FoldCase[] = [
  // Unicode compatibility forms.
  { param: 'q', value: 'crocus CO2', found: ['3001'] },
  { param: 'q', value: 'crocus CO₂', found: ['3001'] },
  { param: 'q', value: 'finite flow', found: ['3002'] },
  { param: 'q', value: 'ﬁnite', found: ['3002'] },
  { param: 'title', value: 'tokamak disruption', found: ['3003'] },
  { param: 'q', value: 'ＴＯＫＡＭＡＫ', found: ['3003'] },
  // Chinese, Japanese and Korean as character pairs: a word is found where its characters stand together.
  { param: 'q', value: '核融合', found: ['3004', '3005'] },
  { param: 'q', value: 'プラズマ', found: ['3004'] },
  { param: 'title', value: '反应堆', found: ['3005'] },
  { param: 'q', value: '核反', found: [] },
  { param: 'q', value: '핵융합', found: ['3006'] },
  { param: 'q', value: '"핵융합 플라즈마"', found: ['3006'] },
  // Umlauts: the transliteration finds the umlaut; a query with an umlaut finds both spellings.
  { param: 'author', value: 'Mueller', found: ['3007', '3008'] },
  { param: 'author', value: 'Muller', found: ['3007', '3009'] },
  { param: 'author', value: 'Müller', found: ['3007', '3008', '3009'] },
  { param: 'q', value: 'ueber', found: ['3007'] },
  { param: 'q', value: 'waermeleitung', found: ['3007'] },
  { param: 'q', value: 'Michael', found: [] },
  // Author names by initials.
  { param: 'author', value: 'Fredrickson, E D', found: ['3011', '3012', '3014'] },
  { param: 'author', value: 'Fredrickson, E.D.', found: ['3011', '3012', '3014'] },
  { param: 'author', value: 'Fredrickson, Eric', found: ['3011', '3012', '3014'] },
  { param: 'author', value: 'Fredrickson, A', found: ['3013'] },
  { param: 'author', value: 'Fredrickson', found: ['3011', '3012', '3013', '3014'] },
];
