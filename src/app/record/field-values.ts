/** Empty values (empty string, empty list, null) are hidden on the record page. */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every((item) => isEmptyValue(item));
  return false;
}
