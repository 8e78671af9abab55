/**
 * The shared vocabulary of the price-file readers (`price-file.ts` for CSV and loading, `price-json.ts`,
 * `price-time.ts`): the loaded series, the problem list and its error, and the few character tests and
 * patterns more than one reader uses. Kept apart so the readers import it without importing each other.
 */
import { InputError } from '../../core/index.js';

/** Price points in time order. Prices are floats: they feed signals, never money arithmetic. */
export interface PriceSeries {
  /** Where the points came from (a file path), for messages and reports. */
  readonly source: string;
  readonly length: number;
  /** Epoch milliseconds, strictly ascending. */
  readonly times: Float64Array;
  /** The price of each point: the `price`/`average_price` column, or `close` for OHLC data. */
  readonly prices: Float64Array;
  /** Present for OHLC files only (ATR and other range indicators need them). */
  readonly opens?: Float64Array;
  readonly highs?: Float64Array;
  readonly lows?: Float64Array;
  /** Present when the file has a `volume` column. */
  readonly volumes?: Float64Array;
}

/**
 * What replaying a series needs of it (the price model behind the sandbox's `--replay`, the
 * backtester): a PriceSeries without its OHLC and volume columns.
 */
export interface PriceSeriesLike {
  readonly source: string;
  readonly length: number;
  readonly times: Float64Array;
  readonly prices: Float64Array;
}

/** One problem found in a price file; `line` is 1-based (null for JSON, where `where` names the item). */
export interface PriceProblem {
  readonly line: number | null;
  readonly where: string;
  readonly message: string;
}

/** How many problems a PriceDataError lists; the rest are counted. */
export const MAX_LISTED_PROBLEMS = 20;

/**
 * Bad price data. Lists every problem (the first MAX_LISTED_PROBLEMS, with the total) so a user fixes a
 * file in one pass instead of one error per run.
 */
export class PriceDataError extends InputError {
  readonly source: string;
  readonly problems: readonly PriceProblem[];
  readonly problemCount: number;

  constructor(source: string, problems: readonly PriceProblem[], problemCount: number) {
    const more = problemCount > problems.length ? `\n  … and ${problemCount - problems.length} more` : '';
    const list = problems.map((p) => `\n  ${p.where}: ${p.message}`).join('');
    const noun = problemCount === 1 ? 'problem' : 'problems';
    super(source, `${problemCount} ${noun} in price data; fix the file and load it again:${list}${more}`);
    this.source = source;
    this.problems = problems;
    this.problemCount = problemCount;
  }
}

/** Collects a file's problems (the first MAX_LISTED_PROBLEMS kept, all counted) so they are reported at once. */
export class Problems {
  readonly listed: PriceProblem[] = [];
  count = 0;
  constructor(readonly source: string) {}

  add(line: number | null, where: string, message: string): void {
    this.count++;
    if (this.listed.length < MAX_LISTED_PROBLEMS) this.listed.push({ line, where, message });
  }
  atLine(line: number, message: string): void {
    this.add(line, `line ${line}`, message);
  }
  throwIfAny(): void {
    if (this.count > 0) throw new PriceDataError(this.source, this.listed, this.count);
  }
}

/** A decimal number as a price file may write it (the check behind every "is not a number" message). */
export const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Character-code tests of the scanners: an ASCII digit; padding around a field (space, tab, quote). */
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
export function isPad(c: number): boolean {
  return c === 32 || c === 9 || c === 34;
}
/** Shortens a value quoted in a message, so one huge field cannot flood the problem list. */
export function clip(value: string): string {
  return value.length > 40 ? `${value.slice(0, 37)}...` : value;
}
