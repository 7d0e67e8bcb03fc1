/** Type-ahead's query keys (TanStack Query's key factories). */
const all = ['complete'] as const;

export const completeKeys = {
  all,
  /** The values /complete offers for what was typed into some fields of one server. */
  values: (baseUrl: string | undefined, fields: readonly string[], typed: string) => [...all, 'values', baseUrl, fields, typed] as const,
};
