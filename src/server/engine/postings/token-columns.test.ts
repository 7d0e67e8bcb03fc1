import { describe, expect, it } from 'vitest';
import { deployments } from '../../../deployments/registry';
import { soleSearchColumns } from '../../../deployments/search-model';
import { searchColumns } from '../../../deployments/schema';
import { withDescriptionSearch } from './description-search.test-support';
import { tokenColumns, tokenListIn, tokenListsServe } from './token-columns';

describe('the columns tokens keep lists in', () => {
  it("serve every deployment's text parameters: each of its columns keeps lists, or each it leaves out does", () => {
    const params = deployments.flatMap((deployment) =>
      deployment.params.flatMap((param) =>
        param.kind === 'text' ? [{ deployment: deployment.key, param: param.name, columns: param.columns }] : [],
      ),
    );
    expect(params.map(({ param }) => param)).toEqual(expect.arrayContaining(['q', 'title', 'author', 'biblio', 'subject', 'fulltext']));
    for (const { deployment, param, columns } of params)
      expect({ deployment, param, served: tokenListsServe(columns) }).toEqual({ deployment, param, served: true });
  });

  it('are the columns a parameter of the deployment table searches alone', () => {
    const sole = searchColumns.filter((column) =>
      deployments.some((deployment) =>
        deployment.params.some((param) => param.kind === 'text' && param.columns.length === 1 && param.columns[0] === column),
      ),
    );
    expect(tokenColumns).toEqual(sole);
    expect(tokenColumns).toEqual(['title', 'authors', 'subjects', 'sponsor', 'research', 'contributing', 'fulltext']);
    // A parameter searching descriptions alone would give their tokens lists there.
    expect(soleSearchColumns(withDescriptionSearch)).toContain('description');
  });

  it('leave out the description and biblio columns, which no parameter searches alone', () => {
    expect(tokenColumns).not.toContain('description');
    expect(tokenColumns).not.toContain('biblio');
    expect(tokenListIn(undefined)).toBe(true);
    expect(tokenListsServe(['description'])).toBe(false);
  });
});
