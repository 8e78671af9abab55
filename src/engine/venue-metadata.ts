import type { ApiClient } from '../api/index.js';
import type { Clock, TimerHandle } from '../clock/index.js';
import { readDecimal, type Dec, type MarketSymbol } from '../core/index.js';
import { errorMessage } from '../exec/index.js';
import type { Logger } from '../log/index.js';
import { TRANSFER_INTENT_TYPE, type TransferLimitRow } from '../venue/venue.js';
import type { EngineRiskView } from './risk-view.js';
import type { TransferLimitReading } from './transfer-limits.js';

export { TRANSFER_INTENT_TYPE, type TransferLimitRow };

/** How often transfer limits are read again when no transfer prompts it. */
export const DEFAULT_TRANSFER_LIMITS_REFRESH_MS = 60_000;

export interface MarketMetadata {
  readonly market: MarketSymbol;
  /** Price increment, wire decimal (ListMarkets `tick_rate`). */
  readonly tickRate: string;
}

/** What the runner reads from the venue besides trading: market ticks and transfer limits. */
export interface VenueMetadata {
  listMarkets(): Promise<readonly MarketMetadata[]>;
  listTransferLimits(transferType: string): Promise<readonly TransferLimitRow[]>;
}

/** VenueMetadata over the client (ListMarkets, ListTransferLimits), at low priority. */
export function apiMetadata(api: Pick<ApiClient, 'listMarkets' | 'listTransferLimits'>): VenueMetadata {
  return {
    listMarkets: async () => (await api.listMarkets({ priority: 'low' })).markets.map((m) => ({ market: m.market, tickRate: m.tick_rate })),
    listTransferLimits: async (type) => (await api.listTransferLimits(type, { priority: 'low' })).items.map((l) => ({ ...(l.limit_asset !== undefined && { limitAsset: l.limit_asset }), ...(l.remaining !== undefined && { remaining: l.remaining }), ...(l.period_seconds !== undefined && { periodSeconds: l.period_seconds }) })),
  };
}

export interface MetadataFeedDeps {
  readonly source: VenueMetadata;
  readonly view: EngineRiskView;
  readonly clock: Clock;
  readonly log: Logger;
  /** Transfer limits are read again this often (and after every transfer). */
  readonly refreshMs: number;
  /** The strategies' markets: one that ListMarkets does not list is reported. */
  readonly markets: readonly MarketSymbol[];
}

/** A non-negative decimal the venue sent, or undefined (absent, empty, signed negative or not a number). */
function unsigned(value: unknown): Dec | undefined {
  if (value === '' || value === undefined) return undefined;
  const d = readDecimal(value);
  return d !== undefined && !d.isNegative() ? d : undefined;
}

/**
 * Feeds the risk view what the gate checks against besides market data: each market's tick (read once
 * at start, retried on the refresh period until a read succeeds) and the transfer limits (read at
 * start, every `refreshMs` on the run's clock and after each transfer). A failed read never stops the
 * run: it is logged and the last values read stay in force. Before any reading of the limits has
 * arrived the gate cannot check them and the venue's own limits decide (a transfer over them is refused
 * there, and nothing moves); limit prices likewise are checked against a tick only once it is known.
 */
export class MetadataFeed {
  private ticksLoaded = false;
  private ticksFailed = false;
  private reading: Promise<void> | undefined;
  private readAgain = false;
  private failing = false;
  private timer: TimerHandle | undefined;
  private stopped = false;

  constructor(private readonly deps: MetadataFeedDeps) {}

  /** First reads of ticks and transfer limits; never throws. */
  async start(): Promise<void> {
    await Promise.all([this.loadTicks(), this.readLimits()]);
    this.schedule();
  }

  /** Reads the transfer limits again as soon as possible (after a transfer reached the venue). */
  refreshSoon(): void {
    if (this.stopped) return;
    if (this.reading) this.readAgain = true;
    else void this.readLimits();
  }

  /** Ends the refreshes; a read in flight is ignored. */
  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = this.deps.clock.setTimeout(() => {
      void (async () => {
        if (!this.ticksLoaded) await this.loadTicks();
        await this.readLimits();
        this.schedule();
      })();
    }, this.deps.refreshMs);
  }

  private async loadTicks(): Promise<void> {
    const { source, view, log } = this.deps;
    let markets: readonly MarketMetadata[];
    try {
      markets = await source.listMarkets();
    } catch (e) {
      if (!this.stopped && !this.ticksFailed) log.warn(`markets could not be read (${errorMessage(e)}): limit prices are not checked against the tick until they are; retrying every ${this.deps.refreshMs / 1000} s`);
      this.ticksFailed = true;
      return;
    }
    if (this.stopped) return;
    const listed = new Set<string>();
    for (const m of markets) {
      const tick = unsigned(m.tickRate);
      if (tick === undefined || !tick.gt(0)) {
        log.warn(`market ${m.market} has no usable tick_rate (${JSON.stringify(m.tickRate)}): its prices are not checked against a tick`);
        continue;
      }
      view.setTick(m.market, tick);
      listed.add(m.market);
    }
    this.ticksLoaded = true;
    const missing = this.deps.markets.filter((m) => !listed.has(m));
    if (missing.length) log.warn(`${missing.join(', ')} not listed with a tick by the venue: their prices are not checked against a tick`);
    log.debug(`ticks of ${listed.size} market(s) loaded`);
  }

  private readLimits(): Promise<void> {
    if (this.reading) return this.reading;
    const p = this.readLimitsOnce().finally(() => {
      this.reading = undefined;
      if (this.readAgain && !this.stopped) {
        this.readAgain = false;
        void this.readLimits();
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
      rows = await source.listTransferLimits(TRANSFER_INTENT_TYPE);
    } catch (e) {
      if (this.stopped) return;
      const keeping = book.lastReadAt !== undefined ? `keeping the limits read at ${new Date(book.lastReadAt).toISOString()}` : 'no limits known yet: transfers are left to the venue\'s own limits';
      if (!this.failing) log.warn(`transfer limits could not be read (${errorMessage(e)}): ${keeping}`);
      else log.debug(`transfer limits still unreadable (${errorMessage(e)})`);
      this.failing = true;
      return;
    }
    if (this.stopped) return;
    const readings: TransferLimitReading[] = [];
    for (const r of rows) {
      const remaining = unsigned(r.remaining);
      if (remaining === undefined || r.limitAsset === undefined) {
        log.warn(`transfer limit without a usable remaining and limit_asset ignored: ${JSON.stringify(r)}`);
        continue;
      }
      readings.push({ limitAsset: r.limitAsset, remaining, perTransaction: r.periodSeconds !== undefined && Number(r.periodSeconds) === 0 });
    }
    book.apply(readings, token, this.deps.clock.now());
    if (this.failing) log.info('transfer limits readable again');
    this.failing = false;
  }
}
