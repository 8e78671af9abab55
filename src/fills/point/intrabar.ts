// The rules of `--intrabar`, apart from bar-range.ts so that a command's --help names them without loading it.

/**
 * Which extreme of a bar is taken as reached first, where the data cannot say (`--intrabar`):
 * - `adverse` (the default): the low, so a long's stop-loss comes before its take-profit;
 * - `open-nearest`: the extreme nearer the open (the low on a tie), the path most bars take;
 * - `favorable`: the high, the best case: run it beside `adverse` to see how much a result leans on
 *   the order inside bars.
 */
export type IntrabarRule = 'adverse' | 'open-nearest' | 'favorable';

export const INTRABAR_RULES: readonly IntrabarRule[] = ['adverse', 'open-nearest', 'favorable'];
