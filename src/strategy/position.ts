/**
 * A position helper for strategy plugins: one long position in one market, entered with a share of
 * the quote balance and exited whole, with optional stop-loss, take-profit and trailing stop. It keeps
 * the order state a strategy would otherwise write by hand, and it only returns intents and reads
 * reports, so it behaves the same in backtests, paper and live runs.
 */
import {
  D,
  ZERO,
  roundBase,
  roundQuote,
  splitMarket,
  type Dec,
  type ExecReport,
  type MarketEvent,
  type MarketSymbol,
  type PriceRange,
} from '../core/index.js';
import { pow10 } from '../core/units.js';
import type { IntentDraft, OwnPosition, StrategyContext } from './define.js';
import { FillTally } from './position-fills.js';
import { OwnOrders, type OwnOrder } from './position-orders.js';
import {
  checkPositionOptions,
  entryLevels,
  exitReason,
  sellPriceOf,
  trailingLevel,
  triggered,
  type ExitKind,
  type ExitLevels,
  type ExitReason,
  type PositionOptions,
} from './position-exits.js';

export type { ExitKind, ExitLevels, ExitReason, PositionOptions } from './position-exits.js';

/**
 * Where a position stands: `flat` (nothing held), `entering` (its buy is in flight), `long` (held, the
 * exit rules armed) or `exiting` (its sell is in flight).
 */
export type PositionState = 'flat' | 'entering' | 'long' | 'exiting';

/** A level as a plain decimal string (a number's shortest digits, never an exponent). */
function levelText(level: number): string {
  return new D(level).toFixed();
}

/** More than zero, without allocating (`gt(0)` builds a Decimal of its argument). */
const positive = (d: Dec): boolean => d.isPositive() && !d.isZero();

/**
 * One long position in `market`, driven by the strategy's events and reports. Inside `create()`:
 *
 * ```ts
 * const position = new Position(p.market, { sizePct: 50, stopLossPct: 2, trailingStopPct: 3 });
 * return {
 *   onEvent(e, ctx) {
 *     const exit = position.onEvent(e, ctx); // a stop or target reached: the sell to send
 *     if (exit) return exit;
 *     if (buySignal) return position.enter(ctx);
 *     if (sellSignal) return position.exitAll(ctx);
 *   },
 *   onReport(r, ctx) {
 *     position.onReport(r, ctx);
 *   },
 * };
 * ```
 *
 * Orders are MARKET orders: an entry buys with `sizePct` percent of the available quote balance (by
 * quote amount, rounded down to the instrument), an exit sells the whole available base balance.
 * Never two orders at once: while one is in flight (`busy`) `enter` and `exitAll` return nothing, and
 * nothing is returned while `ctx.warmingUp`. The entry price and amount come from the order's
 * `filled` reports (volume-weighted, less a commission taken in the base asset).
 *
 * The exit rules are watched by the strategy, on each event it is given: they are not orders resting
 * at the venue, so nothing watches them while the bot is stopped. When one triggers, `onEvent` returns
 * a MARKET sell, which fills like any MARKET order of the mode (in a backtest, by the fill model of
 * point replay at the next point), so the exit price may be worse than the level. The helper keeps
 * its state in memory: after a restart a holding is adopted at the first price seen (`adoptedAt`), and
 * the percent rules measure from there; an absolute `stopLossPrice` does not depend on it.
 *
 * The helper takes as its own the first report of an intent it has not seen while its order awaits its
 * first report, so use one helper per market and let it make the strategy's orders in that market.
 */
export class Position {
  /** The base asset of the market (BTC of BTCUSD). */
  readonly base: string;
  /** The quote asset of the market (USD of BTCUSD). */
  readonly quote: string;
  private phase: PositionState = 'flat';
  /** The helper's orders (one at a time) and the reports that are theirs. */
  private readonly orders: OwnOrders;
  /** The entry's and the exit's fills, counted exactly (see FillTally); a finer amount rescales the order's counts too. */
  private readonly tally: FillTally;
  /** `options.sizePct` / 100, and the sizePct it was computed from. */
  private sizeFraction: Dec = ZERO;
  private sizeFractionOf = Number.NaN;
  private adopted: { readonly price: number; readonly amount: Dec } | undefined;
  /**
   * The highest price since the entry, NaN when none: a number field that is never undefined, so a
   * new high is written in place (a field that may hold undefined boxes each number written to it).
   */
  private high = Number.NaN;
  /** The last total of the base asset read from the account, and whether it was more than zero. */
  private heldTotal: Dec | undefined;
  private heldNow = false;
  private reason: ExitReason | undefined;
  /** The entry's levels (stop-loss, take-profit); undefined when a fill or an adoption changed the entry. */
  private cachedLevels: ExitLevels | undefined;
  /** The levels and the highest price last journaled (see `keep`). */
  private keptLevels: ExitLevels | undefined;
  private keptHigh = Number.NaN;
  /** Whether any exit rule is set (without one, events only follow the highest price). */
  private readonly hasRules: boolean;

  /**
   * @param market the market traded, e.g. "BTCUSD"
   * @param options entry size and exit rules; throws a RangeError naming a bad option and the fix
   */
  constructor(
    readonly market: MarketSymbol,
    readonly options: PositionOptions,
  ) {
    checkPositionOptions(market, options);
    const o = options;
    this.hasRules = [o.stopLossPct, o.stopLossPrice, o.takeProfitPct, o.takeProfitPrice, o.trailingStopPct].some((v) => v !== undefined);
    ({ base: this.base, quote: this.quote } = splitMarket(market));
    this.orders = new OwnOrders(market);
    this.tally = new FillTally(market, (k) => {
      if (this.order) {
        this.order.asked *= k;
        this.order.filled *= k;
      }
    });
  }

  /** The helper's latest order (see OwnOrders). */
  private get order(): OwnOrder | undefined {
    return this.orders.current;
  }

  /** Where the position stands (see PositionState). */
  get state(): PositionState {
    return this.phase;
  }

  /** True while the helper's order is in flight: `enter` and `exitAll` return nothing until it is done. */
  get busy(): boolean {
    return this.phase === 'entering' || this.phase === 'exiting';
  }

  /**
   * Whether the strategy holds any of the base asset: its own position (`ctx.position`), or what it may
   * sell besides (see OwnPosition.sellable); with a context that has no positions, the account's total.
   */
  held(ctx: StrategyContext): boolean {
    const own = mine(ctx, this.market);
    if (own !== undefined) return positive(own.amount) || positive(own.sellable);
    // the engine's account hands out the same total until a balance changes: the answer is kept for
    // it, and worked out again (without allocating, unlike gt(0)) only for a total not seen last time
    const total = ctx.account.total(this.base);
    if (total !== this.heldTotal) {
      this.heldTotal = total;
      this.heldNow = positive(total);
    }
    return this.heldNow;
  }

  /**
   * The entry price: the volume-weighted price of the entry's fills, or, for a holding found at start
   * (see `adoptedAt`), the first price seen. Undefined before any fill. Kept after an exit until the next entry.
   */
  get entryPrice(): Dec | undefined {
    return this.tally.entryPrice ?? (this.adopted && new D(this.adopted.price));
  }

  /** Base held by the position by its own count: bought (less base commission) minus sold, or the holding adopted. */
  get amount(): Dec {
    if (this.adopted && !this.tally.entered) return D.max(ZERO, this.adopted.amount.minus(this.tally.soldAmount));
    return this.tally.held;
  }

  /**
   * The price at which a holding found at start was adopted, when it was: the account held the base
   * before the helper made any order (a restart, or a deposit), so the exit rules measure from there.
   */
  get adoptedAt(): number | undefined {
    return this.adopted?.price;
  }

  /** The highest price seen since the entry (the trailing stop's reference), while a position is held. */
  get highestPrice(): number | undefined {
    return Number.isNaN(this.high) ? undefined : this.high;
  }

  /** Why the latest exit was asked (a rule, or the strategy's `exitAll`); kept until the next entry. */
  get exitReason(): ExitReason | undefined {
    return this.reason;
  }

  /** The exit levels in force now: those of the rules set, once an entry price is known. */
  get levels(): ExitLevels {
    const trailingStop = this.trailingStop();
    return { ...this.fixedLevels(), ...(trailingStop !== undefined && { trailingStop }) };
  }

  /**
   * A MARKET buy spending `sizePct` of the available quote balance, or nothing: while busy, on warm-up,
   * when a position is held (by the helper or in the account), or when the amount rounds to zero.
   */
  enter(ctx: StrategyContext): IntentDraft | undefined {
    if (this.busy || ctx.warmingUp || this.phase !== 'flat' || this.held(ctx)) return undefined;
    const spend = roundQuote(ctx.instrument(this.market), ctx.account.available(this.quote).times(this.sizeShare()));
    if (!(Number(spend) > 0)) return undefined;
    this.orders.start('BUY', 0n);
    this.tally.reset();
    this.adopted = undefined;
    this.high = Number.NaN;
    this.reason = undefined;
    this.cachedLevels = undefined;
    this.phase = 'entering';
    return this.orders.sent({ kind: 'place-order', market: this.market, side: 'BUY', type: 'MARKET', quoteAmount: spend });
  }

  /**
   * A MARKET sell of the whole available base balance (rounded down to the instrument), recorded as a
   * `signal` exit; nothing while busy, on warm-up, or when there is nothing to sell.
   */
  exitAll(ctx: StrategyContext): IntentDraft | undefined {
    // strategies call this at every point their exit condition holds, mostly with nothing to sell: the
    // cheap refusals come before the market's snapshot is read and an amount is rounded
    if (this.busy || ctx.warmingUp || !positive(this.sellable(ctx))) return undefined;
    const price = ctx.market(this.market).price?.value;
    return this.exit(ctx, 'signal', price ?? Number.NaN, price);
  }

  /**
   * Call on each market event the strategy gets. Returns the exit (a MARKET sell of the whole
   * holding) when a stop-loss, take-profit or trailing stop is reached at the event's price, and
   * records why in `exitReason`; otherwise nothing. Events of other markets and warm-up are ignored.
   */
  onEvent(event: MarketEvent, ctx: StrategyContext): IntentDraft | undefined {
    if (event.market !== this.market || ctx.warmingUp) return undefined;
    const o = this.order;
    if (o !== undefined && !o.done && this.orders.closedAtVenue(o, ctx)) this.finish(ctx);
    // a price point, the usual event of a backtest, is read in place (one call less at every point)
    const price = event.kind === 'price' ? event.price : sellPriceOf(event, ctx);
    if (price === undefined) return undefined;
    if (this.phase === 'flat' && !this.orders.everOrdered && this.held(ctx)) this.adopt(ctx, price);
    if (this.phase !== 'long') return undefined;
    if (event.kind === 'price' && event.range !== undefined) return this.onRange(ctx, event.range, price);
    // NaN (no high yet) is replaced by the price; the comparison keeps Math.max's answer for numbers
    if (!(this.high >= price)) this.high = price;
    if (!this.hasRules) return undefined;
    const fixed = this.fixedLevels();
    if (fixed !== this.keptLevels || (this.high !== this.keptHigh && this.options.trailingStopPct !== undefined)) this.keep(ctx, fixed);
    const hit = triggered(fixed, this.trailingStop(), price);
    return hit && this.exit(ctx, hit.kind, hit.level, price);
  }

  /**
   * A price that closes a bar (a backtest over OHLCV rows): the rules are checked against the bar's
   * extremes, in the order the replay takes them (`range.lowFirst`), with the levels in force when the
   * bar opened: the stop-loss and the trailing stop on the low, the take-profit on the high. Such an
   * exit carries its level (`exitLevel`), and point replay fills it inside this bar: at the level, or at
   * the open when the bar opened beyond it. The bar's high then raises the trailing stop; a close
   * below the raised level exits as a close does (filled at the next bar's open).
   */
  private onRange(ctx: StrategyContext, r: PriceRange, close: number): IntentDraft | undefined {
    // a position entered at this bar's open has seen no price before it but the open
    if (Number.isNaN(this.high)) this.high = r.open;
    if (!this.hasRules) {
      if (!(this.high >= r.high)) this.high = r.high;
      return undefined;
    }
    const fixed = this.fixedLevels();
    // a bar wholly above the take-profit names it here too: it opened above, and fills at the open either way
    const low = triggered(fixed, this.trailingStop(), r.low);
    const high = fixed.takeProfit !== undefined && r.high >= fixed.takeProfit ? fixed.takeProfit : undefined;
    const first = r.lowFirst ? low : undefined;
    if (first !== undefined) return this.exit(ctx, first.kind, first.level, close, first.level);
    if (high !== undefined) return this.exit(ctx, 'take-profit', high, close, high);
    if (low !== undefined) return this.exit(ctx, low.kind, low.level, close, low.level);
    if (!(this.high >= r.high)) this.high = r.high;
    if (fixed !== this.keptLevels || (this.high !== this.keptHigh && this.options.trailingStopPct !== undefined)) this.keep(ctx, fixed);
    const trail = this.trailingStop();
    return trail !== undefined && close <= trail ? this.exit(ctx, 'trailing-stop', trail, close) : undefined;
  }

  /**
   * Call with each execution report the strategy gets. Learns the entry price and amount from fills
   * and when the order is done (its last fill, or cancelled, denied, rejected or failed; `unresolved`
   * keeps it in flight until the executor finds out). Returns true when the report was of the helper's
   * own orders.
   */
  onReport(report: ExecReport, ctx: StrategyContext): boolean {
    if (!this.orders.claims(report, ctx)) return false;
    const current = this.order?.refId === report.refId ? this.order : undefined;
    switch (report.kind) {
      case 'filled':
        this.applyFill(report);
        if (current && report.orderDone) this.finish(ctx);
        break;
      case 'cancelled':
      case 'denied':
      case 'rejected':
      case 'failed':
        if (current) this.finish(ctx);
        break;
      default:
        break;
    }
    return true;
  }

  /**
   * A holding found at the first event (a restart, or a balance no order of the helper made): the
   * strategy's own position when it has one, entered at its average cost, with the exit levels kept
   * in the journal before the restart; otherwise what it may sell, entered at `price`.
   */
  private adopt(ctx: StrategyContext, price: number): void {
    const own = mine(ctx, this.market);
    const ownAmount = own !== undefined && positive(own.amount) ? own.amount : undefined;
    this.adopted = {
      price: ownAmount && own?.averageCost ? own.averageCost.toNumber() : price,
      amount: ownAmount ?? (own ? own.sellable : ctx.account.total(this.base)),
    };
    this.cachedLevels = undefined;
    const kept = own?.exitLevels;
    if (kept !== undefined && (kept.stopLoss !== undefined || kept.takeProfit !== undefined)) {
      this.cachedLevels = {
        ...(kept.stopLoss !== undefined && { stopLoss: kept.stopLoss }),
        ...(kept.takeProfit !== undefined && { takeProfit: kept.takeProfit }),
      };
    }
    if (kept?.highest !== undefined) this.high = kept.highest;
    this.phase = 'long';
  }

  /** What the helper may sell now: the strategy's own (see OwnPosition.sellable), at most the available balance. */
  private sellable(ctx: StrategyContext): Dec {
    const available = ctx.account.available(this.base);
    const own = mine(ctx, this.market);
    return own === undefined || own.sellable.gte(available) ? available : own.sellable;
  }

  /** Journals the levels in force with the strategy's position (`ctx.keepExitLevels`), so a restart finds them. */
  private keep(ctx: StrategyContext, fixed: ExitLevels): void {
    this.keptLevels = fixed;
    this.keptHigh = this.high;
    if (typeof ctx.keepExitLevels !== 'function') return;
    const trailingStop = this.trailingStop();
    ctx.keepExitLevels(this.market, {
      ...fixed,
      ...(trailingStop !== undefined && { trailingStop }),
      ...(!Number.isNaN(this.high) && { highest: this.high }),
    });
  }

  /** The share of the available quote an entry spends (sizePct / 100, exact), parsed once per sizePct. */
  private sizeShare(): Dec {
    const pct = this.options.sizePct;
    if (pct !== this.sizeFractionOf) {
      this.sizeFraction = new D(pct).div(100);
      this.sizeFractionOf = pct;
    }
    return this.sizeFraction;
  }

  private fixedLevels(): ExitLevels {
    return (this.cachedLevels ??= entryLevels(this.options, this.entryPrice));
  }

  private trailingStop(): number | undefined {
    const pct = this.options.trailingStopPct;
    return pct !== undefined && !Number.isNaN(this.high) ? trailingLevel(this.high, pct) : undefined;
  }

  /** A MARKET sell of what the helper may sell; `inBar`: the level a bar's extreme reached (see `onRange`). */
  private exit(ctx: StrategyContext, kind: ExitKind, level: number, price: number | undefined, inBar?: number): IntentDraft | undefined {
    if (this.busy || ctx.warmingUp) return undefined;
    const instrument = ctx.instrument(this.market);
    const amount = roundBase(instrument, this.sellable(ctx));
    if (!(Number(amount) > 0)) return undefined;
    this.orders.start('SELL', this.tally.baseUnits(amount, 'amount'));
    this.phase = 'exiting';
    this.reason = exitReason(kind, level, price, ctx.now(), instrument.quoteDecimals);
    return this.orders.sent({
      kind: 'place-order',
      market: this.market,
      side: 'SELL',
      type: 'MARKET',
      baseAmount: amount,
      exitReason: kind,
      ...(inBar !== undefined && { exitLevel: levelText(inBar) }),
    });
  }

  private applyFill(f: Extract<ExecReport, { kind: 'filled' }>): void {
    const tally = this.tally;
    let amount = tally.baseUnits(f.amount, 'amount');
    const scale = tally.unitScale;
    // a commission in the quote asset (the usual case) leaves the base amounts as they are
    const baseFee = f.commissionAsset === this.base ? tally.baseUnits(f.commission, 'commission') : 0n;
    // a commission finer than the amount grew the scale after the amount was read
    if (tally.unitScale !== scale) amount *= pow10(tally.unitScale - scale);
    const order = this.order?.refId === f.refId ? this.order : undefined;
    if (order) {
      order.fills++;
      order.filled += amount;
    }
    this.cachedLevels = undefined;
    if (f.side === 'BUY') {
      tally.buy(amount, baseFee, f.price);
      // a fill that comes after its order was closed (cancelled first): the position is held after all
      if (this.phase === 'flat' && this.order?.done) this.settleEntry();
      return;
    }
    tally.sell(amount + baseFee);
    // a fill of an exit that was closed before it arrived (cancelled first): sold after all
    if (this.phase === 'long' && order?.side === 'SELL' && order.done && order.filled >= order.asked) this.phase = 'flat';
  }

  /** The helper's order is done: the position is held or flat by what was filled. */
  private finish(ctx: StrategyContext): void {
    const o = this.order;
    if (!o || o.done) return;
    o.done = true;
    if (o.side === 'BUY') {
      this.phase = 'flat';
      if (this.tally.entered) this.settleEntry();
      return;
    }
    // an exit refused or only partly filled leaves the rest held: the rules stay armed and trigger again
    this.phase = o.filled >= o.asked || !this.held(ctx) ? 'flat' : 'long';
    if (this.phase === 'flat') this.high = Number.NaN;
  }

  private settleEntry(): void {
    this.phase = 'long';
    const entry = this.tally.entryNumber ?? this.entryPrice!.toNumber();
    this.high = Math.max(Number.isNaN(this.high) ? 0 : this.high, entry);
  }
}

/** The strategy's own position in `market`, where the context keeps positions (a context of an older kit may not). */
function mine(ctx: StrategyContext, market: MarketSymbol): OwnPosition | undefined {
  return typeof ctx.position === 'function' ? ctx.position(market) : undefined;
}
