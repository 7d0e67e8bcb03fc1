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
  // Shaped as Japanese institutes' records are written: a Japanese title with its English one
  // beside it, full-width Latin letters and digits, half-width katakana, names in kanji.
  { id: '3015', title: 'ITER用超伝導コイルの開発 (Development of superconducting coils for ITER)', authors: ['Okuno, Kiyoshi'] },
  { id: '3016', title: 'ＪＴ－６０Ｕにおけるﾄｶﾏｸ放電の高速イオン損失', authors: ['篠原, 孝司'] },
  // German names as upstream records spell them: with the umlaut, transliterated, without it,
  // and with the umlaut as a separate combining mark (decomposed).
  { id: '3017', title: 'Plasma-Wand-Wechselwirkung in Stellaratoren', authors: ['Schröder, Klaus'] },
  { id: '3018', title: 'Divertor heat loads in Wendelstein 7-X', authors: ['Schroeder, K.'] },
  { id: '3019', title: 'Wärmetransport im Plasmarand', authors: ['Go\u0308rler, Tobias'] },
  // ß as German writes it, and as it is written where the letter is missing.
  { id: '3020', title: 'Strömung an der Außenwand', authors: ['Weiß, Peter'] },
  { id: '3021', title: 'Aussenwand insulation in practice', authors: ['Weiss, Paul'] },
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
  // Japanese titles: words within a run of kanji and kana, full-width and half-width forms folded.
  { param: 'q', value: '超伝導コイル', found: ['3015'] },
  { param: 'q', value: '"superconducting coils"', found: ['3015'] },
  { param: 'q', value: 'ITER', found: ['3015'] },
  { param: 'q', value: 'JT-60U', found: ['3016'] },
  { param: 'q', value: 'トカマク放電', found: ['3016'] },
  { param: 'title', value: '高速イオン', found: ['3016'] },
  { param: 'author', value: '篠原', found: ['3016'] },
  { param: 'q', value: '放電コイル', found: [] },
  // German names: every spelling by the umlaut, each transliteration by itself, a decomposed umlaut as a composed one.
  { param: 'author', value: 'Schröder', found: ['3017', '3018'] },
  { param: 'author', value: 'Schroeder', found: ['3017', '3018'] },
  { param: 'author', value: 'Schroder', found: ['3017'] },
  { param: 'author', value: 'Görler', found: ['3019'] },
  { param: 'author', value: 'Goerler', found: ['3019'] },
  { param: 'q', value: 'waermetransport', found: ['3019'] },
  { param: 'q', value: 'Wechselwirkung', found: ['3017'] },
  { param: 'author', value: 'Weiss', found: ['3020', '3021'] },
  { param: 'author', value: 'Weiß', found: ['3020', '3021'] },
  { param: 'q', value: 'aussenwand', found: ['3020', '3021'] },
  { param: 'title', value: 'Außenwand', found: ['3020', '3021'] },
  // Author names by initials.
  { param: 'author', value: 'Fredrickson, E D', found: ['3011', '3012', '3014'] },
  { param: 'author', value: 'Fredrickson, E.D.', found: ['3011', '3012', '3014'] },
  { param: 'author', value: 'Fredrickson, Eric', found: ['3011', '3012', '3014'] },
  { param: 'author', value: 'Fredrickson, A', found: ['3013'] },
  { param: 'author', value: 'Fredrickson', found: ['3011', '3012', '3013', '3014'] },
];
