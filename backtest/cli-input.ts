/**
 * Flag parsing shared by `tradeloop backtest`, `optimize` and `history`: every bad value becomes an
 * InputError naming the flag and the fix (the CLI exits 2), and a progress bar on stderr that shows
 * itself only once a run has taken longer than a second.
 */
import type cliProgress from 'cli-progress';
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import { D, InputError, WIRE_DECIMAL } from '../src/core/index.js';
import { INTRABAR_RULES, type IntrabarRule } from '../src/fills/point/bar-range.js';

/** A number of basis points ≥ 0 (fees, slippage). */
export function parseBps(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 10_000)
    throw new InputError(flag, `expected basis points from 0 to 10000 such as 10, got ${JSON.stringify(value)}`);
  return n;
}

/** A positive whole number (workers, folds). */
export function parsePositiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) throw new InputError(flag, `expected a whole number ≥ 1, got ${JSON.stringify(value)}`);
  return n;
}

/** `USD=10000` or `USD=10000,BTC=0.5`: starting balances. */
export function parseInitial(value: string, flag = '--initial'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of value.split(',')) {
    const m = /^([A-Z]{2,6})=(.+)$/.exec(part.trim());
    if (m === null || !WIRE_DECIMAL.test(m[2]!))
      throw new InputError(flag, `expected ASSET=AMOUNT pairs such as USD=10000 (or USD=10000,BTC=0.5), got ${JSON.stringify(part)}`);
    out[m[1]!] = new D(m[2]!).toFixed();
  }
  return out;
}

/** RFC 3339 with a zone or a date (midnight UTC) → epoch ms. */
export function parseTime(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const text = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isFinite(ms))
    throw new InputError(flag, `expected a date such as 2024-01-31 or 2024-01-31T12:00:00Z, got ${JSON.stringify(value)}`);
  return ms;
}

/**
 * A progress bar on `stream` that appears only after `afterMs` (runs shorter than a second print
 * nothing). `now` is the caller's clock.
 */
export class LazyProgress {
  private bar: cliProgress.SingleBar | undefined;
  private readonly startedAt: number;

  constructor(
    private readonly stream: Writable,
    private readonly now: () => number,
    private readonly label: string,
    private readonly afterMs = 1_000,
  ) {
    this.startedAt = now();
  }

  update(done: number, total: number): void {
    if (this.bar === undefined) {
      if (this.now() - this.startedAt < this.afterMs || done >= total) return;
      // the bar's package loads with the first bar: most runs end before one is drawn
      const bars = createRequire(import.meta.url)('cli-progress') as typeof cliProgress;
      this.bar = new bars.SingleBar(
        {
          stream: this.stream as NodeJS.WritableStream,
          format: `${this.label} [{bar}] {percentage}% {value}/{total}`,
          hideCursor: false,
          clearOnComplete: true,
        },
        bars.Presets.shades_classic,
      );
      this.bar.start(total, done);
      return;
    }
    this.bar.update(done);
  }

  stop(): void {
    this.bar?.stop();
  }
}

/** The --intrabar flag: one of the rules, or undefined when not given. */
export function parseIntrabar(flag: string | undefined): IntrabarRule | undefined {
  if (flag === undefined) return undefined;
  if ((INTRABAR_RULES as readonly string[]).includes(flag)) return flag as IntrabarRule;
  throw new InputError('--intrabar', `${JSON.stringify(flag)} is not a rule: give one of ${INTRABAR_RULES.join(', ')}`);
}
