import { type Clock } from '../clock/clock.js';
import { D, type Dec } from '../core/decimal.js';
import { InputError } from '../core/errors.js';
import { type HistoricalPage, type HistoricalQuery } from './market/history.js';
import { Ledger } from './exchange/ledger.js';
import { type PriceView, type TickerView, priceOf, tickerOf } from './exchange/market-data.js';
import { type MarketState, type TapeTrade, type WireLevel } from './exchange/market-state.js';
import { MatchingEngine } from './exchange/matching.js';
import { type OrderRecord, type PlaceOrderCommand, type SimExecution } from './exchange/order-types.js';
import { MarketRegistry } from './exchange/market-registry.js';
import { ProfileStore } from './exchange/profiles.js';
import { type FeeSchedule, Settlement, type SimListener } from './exchange/settlement.js';
import { DEFAULT_RULES, OrderEntry, type TradingRules, checkRules } from './exchange/trading.js';
import { type DepositCommand, type InternalTransferCommand, type SimTransfer, TransferStore } from './platform/transfers.js';
import { AccountViews, type ExecutionFilter, type OrderFilter } from './exchange/account-views.js';
import { IdSource } from './ids.js';
import {
  type QuoteExecutionCommand,
  type QuoteExecutionFilter,
  QuoteExecutionStore,
  type SimQuoteExecution,
} from './exchange/quote-executions.js';
import { DEFAULT_QUOTE_SETTINGS, QuoteBook, type SimQuote } from './exchange/quotes.js';
import { type SimSnapshot, type SnapshotCache, type SnapshotParts, restoreSnapshot, takeSnapshot } from './snapshot.js';
import { DEFAULT_TRANSFER_LIMITS, type TransferLimitView, TransferLimits } from './platform/transfer-limit-rules.js';
import { type TransferFilter, queryTransfers } from './platform/transfer-query.js';
import { customerIdOf, ownerOf } from './owners.js';
import { PlatformServices } from './platform/platform-services.js';
import { networkFor, type SimOptions } from './sim-options.js';
import { SimTicks } from './sim-ticks.js';

export type { SimOptions } from './sim-options.js';

/**
 * The simulated platform: the exchange (profiles, balances, orders, matching over a seeded synthetic
 * market, held-rate quotes) and the platform areas (transfers, identities, accounts, fiat, crypto,
 * settlements, conversions, tax forms). It is driven by its Clock — `start()` ticks it on the clock's
 * timers, and every command and query first catches up to `clock.now()` — so a TestClock steps it
 * deterministically with no HTTP at all. The local sandbox serves it over HTTP; SimVenue calls it
 * directly in paper mode. Backtests do not run on it but on point replay (`replay/`).
 */
export class SimPlatform {
  readonly clock: Clock;
  readonly seed: number;
  /** The world's instance id (see SimOptions.instanceId); undefined for a seed-only world. */
  readonly instanceId: string | undefined;
  readonly tickMs: number;
  readonly startedAt: number;
  readonly profiles: ProfileStore;
  readonly transfers: TransferStore;
  private readonly registry: MarketRegistry;
  private readonly matching: MatchingEngine;
  private readonly listeners: SimListener[] = [];
  private readonly ledger = new Ledger();
  private readonly settlement: Settlement;
  private readonly entry: OrderEntry;
  private readonly ids: IdSource;
  private readonly limits: TransferLimits;
  /** The held-rate quote model behind `listQuotes` and `executeQuote`. */
  readonly quotes: QuoteBook;
  private readonly quoteExecs: QuoteExecutionStore;
  /** Read-only queries over profiles: balances, orders, executions (see AccountViews). */
  readonly accounts: AccountViews;
  /** Identities, accounts, fiat and crypto transfers, settlements, conversions, tax forms and the may-transact gate. */
  readonly platform: PlatformServices;
  private readonly ticks: SimTicks;
  private readonly rules: TradingRules;

  constructor(private readonly options: SimOptions) {
    const ledger = this.ledger;
    const snap = options.restore;
    const rules: TradingRules = (this.rules = { ...DEFAULT_RULES, ...options.rules });
    checkRules(rules);
    const fees: FeeSchedule = {
      makerRate: new D(options.fees?.makerRate ?? '0.0005'),
      takerRate: new D(options.fees?.takerRate ?? '0.001'),
    };
    this.clock = options.clock;
    this.seed = snap?.seed ?? options.seed ?? 42;
    // a restored world keeps the instance it was made with; an older file without one takes the given
    // one for the ids it issues from now on (its earlier ids came from the seed alone, so none repeats)
    this.instanceId = snap?.instanceId ?? options.instanceId;
    const ids = (this.ids = new IdSource(this.seed, this.instanceId));
    const settlement = (this.settlement = new Settlement(ledger, fees, this.listeners, ids.executionBase()));
    this.tickMs = snap?.tickMs ?? options.tickMs ?? 1000;
    this.startedAt = snap?.startedAt ?? this.clock.now();
    const earliestMs = this.startedAt - (options.historyDays ?? 730) * 86_400_000;
    this.registry = new MarketRegistry({
      seed: this.seed,
      tickMs: this.tickMs,
      startedAt: this.startedAt,
      earliestMs,
      ...(options.replay ? { replay: options.replay } : {}),
    });
    this.profiles = new ProfileStore(() => ids.next('profiles'), this.startedAt);
    this.limits = new TransferLimits(options.transferLimits ?? DEFAULT_TRANSFER_LIMITS, ids);
    const usdValue = (asset: string, amount: Dec): Dec => amount.times(this.registry.usdPrice(asset, this.ticks.lastTime));
    const customerOf = (profileId: string): string => customerIdOf(ids, ownerOf(this.profiles.get(profileId, true)));
    this.transfers = new TransferStore({
      ledger,
      profiles: this.profiles,
      ids,
      limits: this.limits,
      customerId: ids.derived('customer', 1),
      settleDelayMs: options.transferSettleMs ?? 1000,
      usdValue,
      customerOf,
    });
    this.platform = new PlatformServices({
      ids,
      ledger,
      profiles: this.profiles,
      transfers: this.transfers,
      limits: this.limits,
      seed: this.seed,
      usdValue,
      ...(options.platform ? { settings: options.platform } : {}),
    });
    this.quotes = new QuoteBook({ ...DEFAULT_QUOTE_SETTINGS, ...options.quotes }, ids, (m, at) => this.registry.model(m).priceAt(at));
    this.quoteExecs = new QuoteExecutionStore(ledger, this.profiles, this.quotes, ids);
    this.entry = new OrderEntry({
      ledger,
      settlement,
      profiles: this.profiles,
      market: (m) => this.market(m),
      newId: () => ids.next('orders'),
      rules,
    });
    this.matching = new MatchingEngine(settlement, rules);
    this.accounts = new AccountViews(ledger, settlement, this.entry, this.profiles);
    const startAt = snap === undefined ? this.startedAt : Math.max(snap.savedAt, this.clock.now());
    this.ticks = new SimTicks(
      {
        clock: this.clock,
        tickMs: this.tickMs,
        registry: this.registry,
        entry: this.entry,
        matching: this.matching,
        settlement,
        quoteExecs: this.quoteExecs,
        transfers: this.transfers,
        platform: this.platform,
      },
      startAt,
    );
    if (snap !== undefined) restoreSnapshot(this.parts(), snap);
    else
      for (const [asset, value] of Object.entries(options.funding ?? {}))
        this.deposit({ profileId: this.profiles.defaultId, asset, amount: value, cryptoNetwork: networkFor(asset) });
  }

  /** Starts ticking on the clock's timers (real time, accelerated, or a TestClock's advance). */
  start(): void {
    this.ticks.start();
  }

  stop(): void {
    this.ticks.stop();
  }

  /** Current simulated time after catching up. */
  now(): number {
    this.ticks.advanceTo(this.clock.now());
    return this.ticks.lastTime;
  }

  /** Catches up to `atMs`: every tick's due work, then the due quote executions, transfers and platform areas (see SimTicks). */
  advanceTo(atMs: number): void {
    this.ticks.advanceTo(atMs);
  }

  /**
   * Places an order: the may-transact gate, then validated, funds reserved and entered (taker phase
   * run, or OPEN for a stop); returns the order as it stands. With `rules.submitDelayMs` > 0 it is
   * answered SUBMITTED and entered at the first tick at or after `createdAt + submitDelayMs`.
   */
  placeOrder(cmd: PlaceOrderCommand): OrderRecord {
    const now = this.now();
    this.platform.gate.check(typeof cmd.profileId === 'string' ? cmd.profileId : '', {
      identityId: cmd.identityId,
      accountId: cmd.identityAccountId,
    });
    const order = this.entry.accept(cmd, now);
    if (this.rules.submitDelayMs > 0) {
      this.entry.hold(order);
      this.settlement.touched(order);
      return order;
    }
    const market = this.market(order.market);
    this.matching.enter(order, market, market.synthetic.tickOf(now), now);
    return order;
  }

  /** Acknowledges a cancel (it takes effect after `rules.cancelDelayMs`). */
  cancelOrder(profileId: string, orderId: string): void {
    const now = this.now();
    this.entry.requestCancel(this.profiles.get(profileId).id, orderId, now);
  }

  /** A sandbox deposit; a crypto deposit to an address the sandbox issued arrives through that address. */
  deposit(cmd: DepositCommand): { activityId: string; transferId: string } {
    const profile = this.profiles.get(cmd.profileId);
    const now = this.now();
    const given = typeof cmd.cryptoNetwork === 'string' && cmd.cryptoNetwork !== '' ? cmd.cryptoNetwork : undefined;
    const address = typeof cmd.cryptoAddress === 'string' ? this.platform.crypto.findAddress(cmd.cryptoAddress, given) : undefined;
    if (address !== undefined) {
      // without crypto_network, the deposit arrives on the address's own network
      const parsed = this.transfers.parseDeposit(given === undefined ? { ...cmd, cryptoNetwork: address.cryptoNetwork } : cmd);
      if (address.profileId !== profile.id)
        throw new InputError(
          'crypto_address',
          `deposit address ${address.address} belongs to profile ${address.profileId}, not ${profile.id}`,
        );
      const t = this.platform.crypto.depositTo(address, parsed.asset, parsed.amount, parsed.network, now);
      return { activityId: t.activityId, transferId: t.id };
    }
    const t = this.transfers.deposit({ ...cmd, profileId: profile.id }, now);
    return { activityId: t.activityId, transferId: t.id };
  }

  /** Moves funds between two profiles; returns the DEBIT leg (PENDING until `transferSettleMs` later). */
  internalTransfer(cmd: InternalTransferCommand): SimTransfer {
    const now = this.now();
    if (typeof cmd.fromProfileId === 'string' && cmd.fromProfileId !== '')
      this.platform.gate.check(cmd.fromProfileId, { identityId: cmd.fromIdentityId, accountId: cmd.fromAccountId });
    const debit = this.transfers.internal(cmd, now);
    this.transfers.completeDue(now);
    return debit;
  }

  /** One transfer (404 when unknown). */
  getTransfer(id: string): SimTransfer {
    this.now();
    return this.transfers.get(id);
  }

  /** Transfers matching a filter, sorted for paging (see `queryTransfers`). */
  listTransfers(filter: TransferFilter): ReturnType<typeof queryTransfers> {
    this.now();
    return queryTransfers(this.transfers.transfers, filter);
  }

  /** The transfer limits covering a transfer type, with what remains of each now. */
  transferLimits(type: string): TransferLimitView[] {
    return this.limits.forType(type, this.now());
  }

  /** The live BUY and SELL quotes of each market (at most one new pair per market per refresh slot). */
  listQuotes(markets: readonly string[]): SimQuote[] {
    return this.quotes.list(markets, this.now());
  }

  /** Executes a quote at its held price: CREATED now, SETTLED `quotes.settleDelayMs` later. */
  executeQuote(cmd: QuoteExecutionCommand): SimQuoteExecution {
    const now = this.now();
    this.platform.gate.check(cmd.profileId, { identityId: cmd.identityId, accountId: cmd.accountId });
    const x = this.quoteExecs.execute(cmd, now);
    this.quoteExecs.settleDue(now);
    return x;
  }

  getQuoteExecution(profileId: string, id: string): SimQuoteExecution {
    this.now();
    return this.quoteExecs.get(this.profiles.get(profileId, true).id, id);
  }

  /** A profile's quote executions matching a filter, newest first. */
  listQuoteExecutions(filter: QuoteExecutionFilter): SimQuoteExecution[] {
    this.now();
    return this.quoteExecs.list({ ...filter, profileId: this.profiles.get(filter.profileId, true).id });
  }

  /** Every quote execution so far, oldest first, with ref_ids (the sandbox's own truth). */
  quoteExecutions(): readonly SimQuoteExecution[] {
    this.now();
    return this.quoteExecs.executions;
  }

  /** Every transfer so far (deposits and both legs of internal transfers), oldest first. */
  allTransfers(): readonly SimTransfer[] {
    this.now();
    return this.transfers.transfers;
  }

  /** The whole state as plain JSON, restorable with `new SimPlatform({ ..., restore })`; `cache` keeps final records encoded once. */
  snapshot(cache?: SnapshotCache): SimSnapshot {
    const savedAt = this.now();
    return takeSnapshot(
      this.parts(),
      {
        seed: this.seed,
        tickMs: this.tickMs,
        startedAt: this.startedAt,
        savedAt,
        ...(this.instanceId !== undefined && { instanceId: this.instanceId }),
      },
      cache,
    );
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
    return this.registry.model(market).priceAt(this.now());
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
    return this.registry.market(market);
  }

  private parts(): SnapshotParts {
    const { ids, profiles, ledger, entry, settlement, transfers, quotes, limits } = this;
    return {
      ids,
      profiles,
      ledger,
      entry,
      settlement,
      transfers,
      quotes,
      quoteExecutions: this.quoteExecs,
      limits,
      platform: this.platform,
      markets: this.registry.markets,
      market: (m) => this.market(m),
    };
  }
}
