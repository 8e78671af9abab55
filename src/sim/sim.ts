import { type Clock, type TimerHandle } from '../clock/clock.js';
import { D } from '../core/decimal.js';
import { Rng } from '../core/rng.js';
import { SIMULATED_MARKETS, marketSpec } from './catalog.js';
import { SimError } from './errors.js';
import { type HistoricalPage, type HistoricalQuery } from './history.js';
import { Ledger } from './ledger.js';
import { type PriceView, type TickerView, priceOf, tickerOf } from './market-data.js';
import { MarketState, type TapeTrade, type WireLevel } from './market-state.js';
import { MatchingEngine } from './matching.js';
import { type OrderRecord, type PlaceOrderCommand, type SimExecution } from './order-types.js';
import { FractalPriceModel, type PriceModel, type PriceSeriesLike, ReplayPriceModel, ScaledPriceModel } from './price-model.js';
import { ProfileStore } from './profiles.js';
import { type FeeSchedule, Settlement, type SimListener } from './settlement.js';
import { DEFAULT_RULES, OrderEntry, type TradingRules } from './trading.js';
import { type DepositCommand, TransferStore } from './transfers.js';
import { AccountViews, type ExecutionFilter, type OrderFilter } from './account-views.js';

export interface SimOptions {
  /** Drives simulated time: LiveClock/ScaledClock for real time, TestClock in tests and backtests. */
  readonly clock: Clock;
  readonly seed?: number;
  /** Granularity of the simulated market (books, background trades, maker fills): 1000 ms. */
  readonly tickMs?: number;
  /** Commission rates as decimal strings (default maker "0.0005", taker "0.001"). */
  readonly fees?: { readonly makerRate?: string; readonly takerRate?: string };
  readonly rules?: Partial<TradingRules>;
  /** How far back history goes (default 730 days). */
  readonly historyDays?: number;
  /** Replay price files instead of the synthetic path, per market; offset defaults to "file starts now". */
  readonly replay?: Readonly<Record<string, { readonly series: PriceSeriesLike; readonly offsetMs?: number }>>;
  /** Initial funds of the default profile, asset → decimal string (recorded as deposits). */
  readonly funding?: Readonly<Record<string, string>>;
}

/**
 * The simulated platform: profiles, balances, orders and matching over a seeded synthetic market.
 * It is driven by its Clock — `start()` ticks it on the clock's timers, and every public call first
 * catches up to `clock.now()` — so a TestClock steps it deterministically with no HTTP at all. The
 * local sandbox serves it over HTTP; the backtester's SimVenue calls it directly.
 */
export class SimPlatform {
  readonly clock: Clock;
  readonly seed: number;
  readonly tickMs: number;
  readonly startedAt: number;
  readonly profiles: ProfileStore;
  readonly transfers: TransferStore;
  private readonly markets = new Map<string, MarketState>();
  private readonly models = new Map<string, PriceModel>();
  private readonly matching: MatchingEngine;
  private readonly listeners: SimListener[] = [];
  private readonly ledger = new Ledger();
  private readonly settlement: Settlement;
  private readonly entry: OrderEntry;
  /** Read-only queries over accounts: balances, orders, executions (see AccountViews). */
  readonly accounts: AccountViews;
  private lastTick: number;
  private lastTime: number;
  private timer: TimerHandle | undefined;
  private readonly earliestMs: number;

  constructor(private readonly options: SimOptions) {
    const ledger = this.ledger;
    const rules: TradingRules = { ...DEFAULT_RULES, ...options.rules };
    const fees: FeeSchedule = { makerRate: new D(options.fees?.makerRate ?? '0.0005'), takerRate: new D(options.fees?.takerRate ?? '0.001') };
    const settlement = (this.settlement = new Settlement(ledger, fees, this.listeners));
    this.clock = options.clock;
    this.seed = options.seed ?? 42;
    this.tickMs = options.tickMs ?? 1000;
    this.startedAt = this.clock.now();
    this.earliestMs = this.startedAt - (options.historyDays ?? 730) * 86_400_000;
    const ids = new Rng(this.seed).fork('ids');
    this.profiles = new ProfileStore(() => ids.uuid(), this.startedAt);
    this.transfers = new TransferStore(ledger, new Rng(this.seed).fork('transfers'), ids.uuid());
    this.entry = new OrderEntry({ ledger, settlement, profiles: this.profiles, market: (m) => this.market(m), newId: () => ids.uuid(), rules });
    this.matching = new MatchingEngine(settlement, rules);
    this.accounts = new AccountViews(ledger, settlement, this.entry, this.profiles);
    this.lastTime = this.startedAt;
    this.lastTick = Math.floor(this.startedAt / this.tickMs);
    for (const [asset, value] of Object.entries(options.funding ?? {})) this.deposit({ profileId: this.profiles.defaultId, asset, amount: value, cryptoNetwork: networkFor(asset) });
  }

  /** Starts ticking on the clock's timers (real time, accelerated, or a TestClock's advance). */
  start(): void {
    if (this.timer !== undefined) return;
    const loop = (): void => {
      this.advanceTo(this.clock.now());
      this.timer = this.clock.setTimeout(loop, this.tickMs);
    };
    this.timer = this.clock.setTimeout(loop, this.tickMs);
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Current simulated time after catching up. */
  now(): number {
    this.advanceTo(this.clock.now());
    return this.lastTime;
  }

  /** Processes every tick up to `atMs`: due cancels, GTT expiries, stop triggers, maker fills. */
  advanceTo(atMs: number): void {
    if (atMs < this.lastTime) return;
    const target = Math.floor(atMs / this.tickMs);
    for (let k = this.lastTick + 1; k <= target; k++) {
      const kAt = k * this.tickMs;
      this.entry.applyDueCancels(kAt);
      const active = [...this.markets.values()].filter((m) => m.isActive());
      if (active.length === 0) {
        const nextCancel = this.entry.nextCancelDue();
        k = nextCancel === undefined ? target : Math.max(k, Math.min(target, Math.floor(nextCancel / this.tickMs)));
        continue;
      }
      for (const m of active) this.tickMarket(m, k, kAt);
    }
    this.entry.applyDueCancels(atMs);
    this.lastTick = target;
    this.lastTime = atMs;
  }

  /** Places an order: validated, funds reserved, taker phase run; returns the order as it stands. */
  placeOrder(cmd: PlaceOrderCommand): OrderRecord {
    const now = this.now();
    const order = this.entry.accept(cmd, now);
    const market = this.market(order.market);
    if (order.type === 'STOP_MARKET' || order.type === 'STOP_LIMIT') {
      order.status = 'OPEN';
      market.stops.push(order);
      this.settlement.touched(order);
    } else {
      this.matching.execute(order, market, market.synthetic.tickOf(now), now);
    }
    return order;
  }

  /** Acknowledges a cancel (it takes effect after `rules.cancelDelayMs`). */
  cancelOrder(profileId: string, orderId: string): void {
    const now = this.now();
    this.entry.requestCancel(this.profiles.get(profileId).id, orderId, now);
  }

  deposit(cmd: DepositCommand): { activityId: string; transferId: string } {
    const profile = this.profiles.get(cmd.profileId);
    const t = this.transfers.deposit({ ...cmd, profileId: profile.id }, this.now());
    return { activityId: t.activityId, transferId: t.id };
  }

  /** Deactivates a profile (zero balances needed; never the default one). */
  deactivateProfile(profileId: string): void {
    this.now();
    this.profiles.deactivate(profileId, this.ledger);
  }

  /** Listens to order changes and executions (returns the unsubscribe function). */
  subscribe(listener: SimListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  orderBook(market: string): { bids: WireLevel[]; asks: WireLevel[] } {
    const now = this.now();
    return this.market(market).orderBook(Math.floor(now / this.tickMs));
  }

  recentExecutions(market: string): TapeTrade[] {
    return this.market(market).recentTrades(this.now());
  }

  ticker(market: string): TickerView {
    return tickerOf(this.market(market), this.now());
  }

  price(market: string): PriceView {
    return priceOf(this.market(market), this.now());
  }

  historicalPrices(market: string, query: HistoricalQuery): HistoricalPage {
    return this.market(market).history.historical(query, this.now());
  }

  /** The mid price of a market now (a number: for signals and tests, not for money). */
  mid(market: string): number {
    return this.model(market).priceAt(this.now());
  }

  /** One order of a profile, caught up to now (404 for another profile's order). */
  getOrder(profileId: string, orderId: string): OrderRecord {
    this.now();
    return this.accounts.getOrder(profileId, orderId);
  }

  /** Orders matching a filter, newest first, caught up to now. */
  listOrdersNow(filter: OrderFilter): OrderRecord[] {
    this.now();
    return this.accounts.listOrders(filter);
  }

  /** Executions matching a filter, newest first, caught up to now. */
  listExecutionsNow(filter: ExecutionFilter): SimExecution[] {
    this.now();
    return this.accounts.listExecutions(filter);
  }

  /** Every order so far, oldest first, with ref_ids and internal reasons (the sandbox's own truth). */
  orders(): readonly OrderRecord[] {
    this.now();
    return this.entry.orders;
  }

  /** Every execution so far, oldest first (the sandbox's own truth, for tests). */
  executions(): readonly SimExecution[] {
    this.now();
    return this.settlement.executions;
  }

  /** The live state of one market; throws not-found for a market the sim does not simulate. */
  market(market: string): MarketState {
    let state = this.markets.get(market);
    if (state === undefined) {
      if (!SIMULATED_MARKETS.includes(market)) throw new SimError('not-found', `market ${market} is not available`);
      state = new MarketState(marketSpec(market), this.model(market), this.seed, this.tickMs, this.earliestMs);
      this.markets.set(market, state);
    }
    return state;
  }

  private tickMarket(m: MarketState, tick: number, tickAt: number): void {
    for (const o of [...m.bids, ...m.asks, ...m.stops]) {
      if (o.expiresAt !== undefined && o.expiresAt <= tickAt) this.settlement.close(o, 'CANCELLED', o.expiresAt, m, 'GTT expired');
    }
    this.matching.triggerStops(m, tick, tickAt);
    this.matching.onTick(m, tick, tickAt);
  }

  private model(market: string): PriceModel {
    let model = this.models.get(market);
    if (model === undefined) {
      const spec = marketSpec(market);
      const replay = this.options.replay?.[market];
      if (replay !== undefined) {
        model = new ReplayPriceModel(replay.series, replay.offsetMs ?? this.startedAt - (replay.series.times[0] ?? 0));
      } else {
        const base = new FractalPriceModel(this.seed, spec.base, spec.asset.usdPrice, spec.asset.annualVol);
        model = new ScaledPriceModel(base, spec.fx);
      }
      this.models.set(market, model);
    }
    return model;
  }
}

function networkFor(asset: string): string | undefined {
  const networks: Record<string, string> = { BTC: 'BITCOIN', BCH: 'BITCOIN_CASH', LTC: 'LITECOIN', SOL: 'SOLANA' };
  return ['USD', 'EUR', 'SGD', 'BRL', 'GBP', 'MXN'].includes(asset) ? undefined : (networks[asset] ?? 'ETHEREUM');
}
