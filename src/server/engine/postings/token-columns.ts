import { deployments } from '../../../deployments/registry';
import { soleSearchColumns } from '../../../deployments/search-model';
import { searchColumns, type SearchColumn } from '../../../deployments/schema';

/**
 * The columns a token has a list of its own in, beside its whole-record list: those a
 * parameter of some deployment searches alone (title=, author=, subject=, the
 * organisations', fulltext=), from the deployment table, whose digest names them (a change
 * asks for a rebuild: store/model-digest.ts). The description and biblio columns are
 * searched only with others: by q=, over whole records, and by biblio=, every column but the
 * full text, which is a token's whole-record list less its full-text list
 * (query/compile.ts), as a pair's is (query/pair-difference.ts). Their lists, read only to
 * be merged with the others', were a fifth of the tokens' postings.
 */
export const tokenColumns: readonly SearchColumn[] = soleSearchColumns(deployments);

/** Whether a token has a list in `column` (undefined: over whole records). */
export const tokenListIn = (column: SearchColumn | undefined): boolean => column === undefined || tokenColumns.includes(column);

/**
 * Whether a parameter over `columns` is answered from the tokens' lists: each of its columns
 * has them, or each column it leaves out does (its lists are then taken from the whole-record ones).
 */
export const tokenListsServe = (columns: readonly SearchColumn[]): boolean =>
  columns.every(tokenListIn) || searchColumns.filter((column) => !columns.includes(column)).every(tokenListIn);
