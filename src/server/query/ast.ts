/** The query language's syntax tree: what the parser produces and the store compiles. */
export type QueryNode =
  | { readonly type: 'term'; readonly text: string; readonly prefix: boolean }
  | { readonly type: 'phrase'; readonly text: string }
  | { readonly type: 'and'; readonly children: readonly QueryNode[] }
  | { readonly type: 'or'; readonly children: readonly QueryNode[] }
  | { readonly type: 'not'; readonly child: QueryNode };
