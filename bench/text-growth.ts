import { fileURLToPath } from 'node:url';
import { deploymentByKey } from '../src/deployments/registry';
import type { DeploymentKey } from '../src/deployments/schema';
import { searchModel } from '../src/deployments/search-model';
import { parseAuthor } from '../src/formats/authors';
import { textColumns } from '../src/formats/index-text';
import { toSearchText } from '../src/formats/rich-text';
import { valuesOf } from '../src/formats/text';
import { generateRecords } from '../src/server/corpus/generate';
import { readUpstreamFiles } from '../src/server/import/files';
import type { StoredRecord } from '../src/server/store/types';

/**
 * How much the text folding (src/formats/fold-text.ts) adds to what the stores index:
 * tokens and characters of every search column, as indexed now and as the columns' own
 * values (with ORCID forms) were indexed before it. `npx tsx bench/text-growth.ts [records]`.
 */

const tokens = (text: string) => (text.match(/[\p{L}\p{N}\p{M}\p{Co}]+/gu) ?? []).length;
const percent = (after: number, before: number) => `+${((after / before - 1) * 100).toFixed(1)}%`;

function measure(name: string, key: DeploymentKey, records: readonly StoredRecord[]) {
  const deployment = deploymentByKey(key)!;
  const before = { tokens: 0, chars: 0 };
  const after = { tokens: 0, chars: 0 };
  for (const stored of records) {
    for (const { name: column, fields } of searchModel(deployment).index.columns) {
      const parts = fields.flatMap((field) => valuesOf(stored.record[field]).map(toSearchText));
      if (column === 'fulltext' && stored.fulltext) parts.push(stored.fulltext);
      if (column === 'authors') {
        for (const author of valuesOf(stored.record.authors)) {
          const { orcid } = parseAuthor(author);
          if (orcid) parts.push(`${orcid} ${orcid.replace(/-/g, '')}`);
        }
      }
      before.tokens += tokens(parts.join('\n'));
      before.chars += parts.join('\n').length;
    }
    const now = Object.values(textColumns(deployment, stored)).join('\n');
    after.tokens += tokens(now);
    after.chars += now.length;
  }
  console.log(
    `${name} (${records.length} records): tokens ${before.tokens} → ${after.tokens} (${percent(after.tokens, before.tokens)}), characters ${before.chars} → ${after.chars} (${percent(after.chars, before.chars)})`,
  );
}

const real = (file: string) => fileURLToPath(new URL(`../data/real/${file}`, import.meta.url));
const generated = Number(process.argv[2] ?? 20_000);
const lit = deploymentByKey('LIT')!;
measure(
  'DC1, real',
  'DC1',
  readUpstreamFiles(deploymentByKey('DC1')!, [real('dc-v1-geothermal-and-more-250.json'), real('dc-v1-plasma-lab-209.json')]),
);
measure('LIT, real', 'LIT', readUpstreamFiles(lit, [real('lit-v1-datasets-40.json'), real('lit-v1-datasets-xml-sample.xml')]));
measure('LIT, generated', 'LIT', [...generateRecords(lit, generated, { seed: 1 })]);
// The shipped records have no CJK text: a generated set with a Japanese title on every tenth record.
const japanese = '核融合プラズマの閉じ込めに関する研究と高温超伝導磁石の開発';
measure(
  'LIT, generated, every 10th title Japanese',
  'LIT',
  [...generateRecords(lit, generated / 10, { seed: 2 })].map((stored, i) =>
    i % 10 === 0 ? { ...stored, record: { ...stored.record, title: japanese } } : stored,
  ),
);
