import type { YearRange } from '../../formats/query-years';

/** The query language's syntax tree: what the parser produces and the store compiles. */
export type QueryNode =
  | {
      readonly type: 'term';
      readonly text: string;
      readonly prefix: boolean;
      /** A year word of the main search: it also matches records published in these years (formats/query-years.ts). */
      readonly years?: YearRange;
    }
  | { readonly type: 'phrase'; readonly text: string }
  | { readonly type: 'and'; readonly children: readonly QueryNode[] }
  | { readonly type: 'or'; readonly children: readonly QueryNode[] }
  | { readonly type: 'not'; readonly child: QueryNode };
