/**
 * The simulated platform's time (`SimPlatform` in `sim.ts` delegates to it): ticking on the clock's
 * timers, and catching up tick by tick to a time — per tick the due cancels, GTT expiries, stop
 * triggers and maker fills of every active market, then the entry of orders held by an order-entry
 * delay; at the end the due work of quote executions, transfers and the platform areas. Kept apart
 * so the platform file holds its commands and queries.
 */
import { type Clock, type TimerHandle } from '../clock/clock.js';
import { gttExpired } from '../platform/order-life.js';
import { type MarketRegistry } from './exchange/market-registry.js';
import { type MarketState } from './exchange/market-state.js';
import { type MatchingEngine } from './exchange/matching.js';
import { type PlatformServices } from './platform/platform-services.js';
import { type QuoteExecutionStore } from './exchange/quote-executions.js';
import { type Settlement } from './exchange/settlement.js';
import { type OrderEntry } from './exchange/trading.js';
import { type TransferStore } from './platform/transfers.js';

/** The parts of the sim that have work due as time passes. */
export interface TickParts {
  readonly clock: Clock;
  readonly tickMs: number;
  readonly registry: MarketRegistry;
  readonly entry: OrderEntry;
  readonly matching: MatchingEngine;
  readonly settlement: Settlement;
  readonly quoteExecs: QuoteExecutionStore;
  readonly transfers: TransferStore;
  readonly platform: PlatformServices;
}

/** Moves a sim through time: the last time and tick processed, and the clock timer when started. */
export class SimTicks {
  /** Simulated time processed so far (epoch ms); never goes back. */
  lastTime: number;
  private lastTick: number;
  private timer: TimerHandle | undefined;

  constructor(
    private readonly s: TickParts,
    startAt: number,
  ) {
    this.lastTime = startAt;
    this.lastTick = Math.floor(startAt / s.tickMs);
  }

  /** Starts ticking on the clock's timers (real time, accelerated, or a TestClock's advance). */
  start(): void {
    if (this.timer !== undefined) return;
    const loop = (): void => {
      this.advanceTo(this.s.clock.now());
      this.timer = this.s.clock.setTimeout(loop, this.s.tickMs);
    };
    this.timer = this.s.clock.setTimeout(loop, this.s.tickMs);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /**
   * Processes every tick up to `atMs` — due cancels, GTT expiries, stop triggers and maker fills, then
   * the held orders due for entry — and at `atMs` the due quote executions, transfers and platform areas.
   */
  advanceTo(atMs: number): void {
    if (atMs < this.lastTime) return;
    const { tickMs, entry, registry } = this.s;
    const target = Math.floor(atMs / tickMs);
    for (let k = this.lastTick + 1; k <= target; k++) {
      const kAt = k * tickMs;
      entry.applyDueCancels(kAt);
      const active = registry.active();
      for (const m of active) this.tickMarket(m, k, kAt);
      const entered = entry.hasAwaiting && this.enterDue(k, kAt);
      if (active.length === 0 && !entered) k = this.idleUntil(k, target);
    }
    entry.applyDueCancels(atMs);
    this.s.quoteExecs.settleDue(atMs);
    this.s.transfers.completeDue(atMs);
    this.s.platform.advance(atMs);
    this.lastTick = target;
    this.lastTime = atMs;
  }

  /** Enters the held orders due at tick `k` (after the tick's own work, as if placed at `kAt`). */
  private enterDue(k: number, kAt: number): boolean {
    const due = this.s.entry.dueEntries(kAt);
    for (const o of due) this.s.matching.enter(o, this.s.registry.market(o.market), k, kAt);
    return due.length > 0;
  }

  /** With no bot orders on any market: the last tick to pass over before a due cancel or order entry. */
  private idleUntil(k: number, target: number): number {
    const { entry, tickMs } = this.s;
    const cancelAt = entry.nextCancelDue();
    const entryAt = entry.nextEntryDue();
    let until = target;
    if (cancelAt !== undefined) until = Math.min(until, Math.floor(cancelAt / tickMs));
    if (entryAt !== undefined) until = Math.min(until, Math.ceil(entryAt / tickMs) - 1);
    return Math.max(k, until);
  }

  private tickMarket(m: MarketState, tick: number, tickAt: number): void {
    for (const o of [...m.bids, ...m.asks, ...m.stops]) {
      if (gttExpired(o.expiresAt, tickAt)) this.s.settlement.close(o, 'CANCELLED', o.expiresAt!, m, 'GTT expired');
    }
    this.s.matching.triggerStops(m, tick, tickAt);
    this.s.matching.onTick(m, tick, tickAt);
  }
}
