/**
 * RIS as an importer reads it: CRLF lines, `XX  - value`, records from TY to ER. Throws on
 * anything else. The tests read back what the RIS writer made with it.
 */
export function parseRis(text: string): [string, string][][] {
  if (/[\r\n]/.test(text.replace(/\r\n/g, ''))) throw new Error('a line break other than CRLF');
  const records: [string, string][][] = [];
  let current: [string, string][] | undefined;
  for (const line of text.split('\r\n')) {
    if (line === '') continue;
    const match = /^([A-Z][A-Z0-9]) {2}- (.*)$/.exec(line);
    if (!match) throw new Error(`not a RIS line: ${JSON.stringify(line)}`);
    const [, tag, value] = match as unknown as [string, string, string];
    if (tag === 'TY') {
      if (current) throw new Error('TY before the previous record’s ER');
      current = [];
    }
    if (!current) throw new Error(`${tag} outside a record`);
    current.push([tag, value]);
    if (tag === 'ER') {
      records.push(current);
      current = undefined;
    }
  }
  if (current) throw new Error('record without ER');
  return records;
}
