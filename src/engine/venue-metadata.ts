import type { Clock, TimerHandle } from '../clock/index.js';
import { readDecimal, type Dec, type Instrument, type MarketSymbol } from '../core/index.js';
import { errorMessage } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import { type TransferLimitRow, type Venue } from '../venue/venue.js';
import type { EngineRiskView } from './risk-view.js';
import type { TransferLimitReading } from './transfer-limits.js';

export { TRANSFER_INTENT_TYPE, type TransferLimitRow } from '../venue/venue.js';

/** How often transfer limits are read again when no transfer prompts it. */
export const DEFAULT_TRANSFER_LIMITS_REFRESH_MS = 60_000;

/**
 * What the kernel reads from the venue besides trading, in every mode: the instruments (ListMarkets:
 * tick, decimals, caps) and the transfer limits (ListTransferLimits). Every Venue provides both.
 */
export type VenueMetadata = Pick<Venue, 'instruments' | 'transferLimits'>;

export interface MetadataFeedDeps {
  readonly source: VenueMetadata;
  readonly view: EngineRiskView;
  readonly clock: Pick<Clock, 'now' | 'setTimeout'>;
  readonly log?: Logger;
  /** Transfer limits are read again this often (and after every transfer). */
  readonly refreshMs: number;
  /** The strategies' markets: one that ListMarkets does not list is reported. */
  readonly markets: readonly MarketSymbol[];
  /** Told of every read started on a timer or after a transfer (the kernel counts them as work in flight). */
  readonly track?: (read: Promise<void>) => void;
  /**
   * `always` (live and paper: someone else may move money on the account) reads the limits every
   * `refreshMs`; `after-transfers` (a backtest, where only the run itself transfers) reads them on the
   * period only while a transfer of the run is inside the limits' longest window, when what remains can
   * still change; a backtest that never transfers pays nothing per point.
   */
  readonly refresh?: 'always' | 'after-transfers';
}

/** The window assumed for limits that state none (a rolling day). */
const DEFAULT_WINDOW_MS = 86_400_000;

/** A non-negative decimal the venue sent, or undefined (absent, empty, signed negative or not a number). */
function unsigned(value: unknown): Dec | undefined {
  if (value === '' || value === undefined) return undefined;
  const d = readDecimal(value);
  return d !== undefined && !d.isNegative() ? d : undefined;
}

/**
 * Feeds the risk view what the gate checks against besides market data, from the venue in every mode:
 * each market's instrument (read once at start, retried on the refresh period until a read succeeds)
 * and the transfer limits (read at start, every `refreshMs` on the run's clock and after each transfer).
 * A failed read never stops the run: it is logged and the last values read stay in force. Before any
 * reading of the limits has arrived the gate cannot check them and the venue's own limits decide (a
 * transfer over them is refused there, and nothing moves); until the instruments are read the platform
 * catalog's ticks and decimals are checked.
 */
export class MetadataFeed {
  private ticksLoaded = false;
  private ticksFailed = false;
  private reading: Promise<void> | undefined;
  private readAgain = false;
  private failing = false;
  private timer: TimerHandle | undefined;
  private stopped = false;
  /** With `after-transfers`: until when what remains can still change (the last transfer + the longest window). */
  private changingUntil = Number.NEGATIVE_INFINITY;
  private longestWindowMs = DEFAULT_WINDOW_MS;

  constructor(private readonly deps: MetadataFeedDeps) {}

  /** First reads of ticks and transfer limits; never throws. */
  async start(): Promise<void> {
    await Promise.all([this.loadTicks(), this.readLimits()]);
    this.schedule();
  }

  /** Reads the transfer limits again as soon as possible (after a transfer reached the venue). */
  refreshSoon(): void {
    if (this.stopped) return;
    this.changingUntil = this.deps.clock.now() + this.longestWindowMs;
    if (this.reading) this.readAgain = true;
    else this.background(this.readLimits());
    if (this.timer === undefined) this.schedule();
  }

  /** Ends the refreshes; a read in flight is ignored. */
  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  private schedule(): void {
    this.timer = undefined;
    if (this.stopped) return;
    const idle = this.deps.refresh === 'after-transfers' && this.ticksLoaded && this.deps.clock.now() >= this.changingUntil;
    if (idle) return; // re-armed by the next transfer
    this.timer = this.deps.clock.setTimeout(() => {
      this.background(
        (async () => {
          if (!this.ticksLoaded) await this.loadTicks();
          await this.readLimits();
          this.schedule();
        })(),
      );
    }, this.deps.refreshMs);
  }

  private background(read: Promise<void>): void {
    if (this.deps.track) this.deps.track(read);
    else void read;
  }

  private async loadTicks(): Promise<void> {
    const { source, view, log } = this.deps;
    let instruments: readonly Instrument[];
    try {
      instruments = await source.instruments();
    } catch (e) {
      if (!this.stopped && !this.ticksFailed)
        log?.warn(
          `markets could not be read (${errorMessage(e)}): the platform catalog's ticks and decimals are checked until they are; retrying every ${this.deps.refreshMs / 1000} s`,
        );
      this.ticksFailed = true;
      return;
    }
    if (this.stopped) return;
    const listed = new Set<string>();
    for (const i of instruments) {
      view.setInstrument(i);
      listed.add(i.market);
    }
    this.ticksLoaded = true;
    const missing = this.deps.markets.filter((m) => !listed.has(m));
    if (missing.length) log?.warn(`${missing.join(', ')} not listed with a tick by the venue: the platform catalog's tick is checked`);
    log?.debug(`instruments of ${listed.size} market(s) loaded`);
  }

  private readLimits(): Promise<void> {
    if (this.reading) return this.reading;
    const p = this.readLimitsOnce().finally(() => {
      this.reading = undefined;
      if (this.readAgain && !this.stopped) {
        this.readAgain = false;
        this.background(this.readLimits());
      }
    });
    this.reading = p;
    return p;
  }

  private async readLimitsOnce(): Promise<void> {
    const { source, view, log } = this.deps;
    const book = view.transferLimits;
    const token = book.beginRead();
    let rows: readonly TransferLimitRow[];
    try {
      rows = await source.transferLimits();
    } catch (e) {
      if (this.stopped) return;
      const keeping =
        book.lastReadAt !== undefined
          ? `keeping the limits read at ${new Date(book.lastReadAt).toISOString()}`
          : "no limits known yet: transfers are left to the venue's own limits";
      if (!this.failing) log?.warn(`transfer limits could not be read (${errorMessage(e)}): ${keeping}`);
      else log?.debug(`transfer limits still unreadable (${errorMessage(e)})`);
      this.failing = true;
      return;
    }
    if (this.stopped) return;
    const readings: TransferLimitReading[] = [];
    for (const r of rows) {
      const remaining = unsigned(r.remaining);
      if (remaining === undefined || r.limitAsset === undefined) {
        log?.warn(`transfer limit without a usable remaining and limit_asset ignored: ${JSON.stringify(r)}`);
        continue;
      }
      const limit = unsigned(r.limit);
      const period = r.periodSeconds === undefined ? undefined : Number(r.periodSeconds);
      readings.push({
        limitAsset: r.limitAsset,
        remaining,
        perTransaction: period === 0,
        ...(limit !== undefined && { limit }),
        ...(period !== undefined && Number.isFinite(period) && { periodSeconds: period }),
      });
      const windowMs = Number(r.periodSeconds) * 1000;
      if (Number.isFinite(windowMs) && windowMs > this.longestWindowMs) this.longestWindowMs = windowMs;
    }
    book.apply(readings, token, this.deps.clock.now());
    if (this.failing) log?.info('transfer limits readable again');
    this.failing = false;
  }
}
