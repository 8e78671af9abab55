/**
 * The exit rules of a position helper (stop-loss, take-profit, trailing stop): their options, checked
 * once when the helper is made, and the levels they put on a held position. Prices here are numbers,
 * as every market price a strategy sees is: a level is compared with the price of each event.
 */
import { D, type Dec, type MarketEvent, type MarketSymbol } from '../core/index.js';
import type { StrategyContext } from './define.js';

/** How a position helper sizes its entries and when it exits on its own. Every exit rule is optional. */
export interface PositionOptions {
  /** Percent of the available quote balance an entry spends (more than 0, at most 100). */
  readonly sizePct: number;
  /** Exit when the price falls this many percent below the entry price (e.g. 2 for 2 %). */
  readonly stopLossPct?: number;
  /** Exit when the price falls to this price or below (instead of `stopLossPct`). */
  readonly stopLossPrice?: number;
  /** Exit when the price rises this many percent above the entry price. */
  readonly takeProfitPct?: number;
  /** Exit when the price rises to this price or above (instead of `takeProfitPct`). */
  readonly takeProfitPrice?: number;
  /** Exit when the price falls this many percent below the highest price seen since the entry. */
  readonly trailingStopPct?: number;
}

/** What closed (or is closing) a position: one of the exit rules, or the strategy's own call to `exitAll`. */
export type ExitKind = 'stop-loss' | 'take-profit' | 'trailing-stop' | 'signal';

/** Why a position helper asked to exit, for the strategy to log or show. */
export interface ExitReason {
  readonly kind: ExitKind;
  /** The level the price reached (a stop or target); for a `signal` exit, the price at the call. */
  readonly level: number;
  /** The price of the event that triggered the exit (undefined when no price was known). */
  readonly price: number | undefined;
  /** Engine time of the decision, epoch ms. */
  readonly at: number;
  /** In words, at the quote asset's precision: "stop-loss at 58,800.00". */
  readonly text: string;
}

/** The exit levels in force on a held position (absent: that rule is off, or no entry price is known yet). */
export interface ExitLevels {
  readonly stopLoss?: number;
  readonly takeProfit?: number;
  readonly trailingStop?: number;
}

/** Checks the options; throws a RangeError naming the option and the fix for a bad one. */
export function checkPositionOptions(market: MarketSymbol, o: PositionOptions): void {
  const where = `Position(${JSON.stringify(market)})`;
  const bad = (name: string, value: unknown, want: string): never => {
    throw new RangeError(`${where}: ${name} ${JSON.stringify(value)} is not valid: give ${want}`);
  };
  const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  if (!finite(o?.sizePct) || o.sizePct <= 0 || o.sizePct > 100)
    bad('sizePct', o?.sizePct, 'a percent of the quote balance, more than 0 and at most 100');
  for (const name of ['stopLossPct', 'trailingStopPct'] as const) {
    const v = o[name];
    if (v !== undefined && (!finite(v) || v <= 0 || v >= 100))
      bad(name, v, 'a percent below the price, more than 0 and less than 100 (e.g. 2 for 2 %), or leave it out');
  }
  if (o.takeProfitPct !== undefined && (!finite(o.takeProfitPct) || o.takeProfitPct <= 0))
    bad('takeProfitPct', o.takeProfitPct, 'a percent above the entry price, more than 0 (e.g. 5 for 5 %), or leave it out');
  for (const name of ['stopLossPrice', 'takeProfitPrice'] as const) {
    const v = o[name];
    if (v !== undefined && (!finite(v) || v <= 0)) bad(name, v, 'a price above 0, or leave it out');
  }
  if (o.stopLossPct !== undefined && o.stopLossPrice !== undefined)
    throw new RangeError(`${where}: give stopLossPct or stopLossPrice, not both`);
  if (o.takeProfitPct !== undefined && o.takeProfitPrice !== undefined)
    throw new RangeError(`${where}: give takeProfitPct or takeProfitPrice, not both`);
}

/**
 * The levels of the rules measured from the entry (stop-loss, take-profit) for a position entered at
 * `entry`. Worked out in decimals, once per entry, so a level is the one a person computes (10 % above
 * 100 is 110, not 110.00000000000001) and a price exactly at it triggers.
 */
export function entryLevels(o: PositionOptions, entry: Dec | undefined): ExitLevels {
  const stopLoss =
    o.stopLossPrice ??
    (o.stopLossPct !== undefined && entry !== undefined ? entry.times(new D(100).minus(o.stopLossPct)).div(100).toNumber() : undefined);
  const takeProfit =
    o.takeProfitPrice ??
    (o.takeProfitPct !== undefined && entry !== undefined ? entry.times(new D(100).plus(o.takeProfitPct)).div(100).toNumber() : undefined);
  return { ...(stopLoss !== undefined && { stopLoss }), ...(takeProfit !== undefined && { takeProfit }) };
}

/**
 * The trailing stop's level `pct` percent below `high`: one rounding of the exact product (so 5 %
 * below 125 is 118.75), cheap enough for every new high.
 */
export function trailingLevel(high: number, pct: number): number {
  return (high * (100 - pct)) / 100;
}

/**
 * The rule `price` triggers, if any. When a price falls through both stops at once, the higher level
 * (the one the price crossed first) is named.
 */
export function triggered(
  levels: ExitLevels,
  trailingStop: number | undefined,
  price: number,
): { kind: ExitKind; level: number } | undefined {
  const { stopLoss, takeProfit } = levels;
  const lossHit = stopLoss !== undefined && price <= stopLoss;
  const trailHit = trailingStop !== undefined && price <= trailingStop;
  if (lossHit && (!trailHit || stopLoss >= trailingStop)) return { kind: 'stop-loss', level: stopLoss };
  if (trailHit) return { kind: 'trailing-stop', level: trailingStop };
  if (takeProfit !== undefined && price >= takeProfit) return { kind: 'take-profit', level: takeProfit };
  return undefined;
}

/**
 * The price an event carries for a holder who would sell: a price point, the ticker's bid (else its
 * last trade), the book's best bid; for other events the market's latest reference price.
 */
export function sellPriceOf(event: MarketEvent, ctx: StrategyContext): number | undefined {
  switch (event.kind) {
    case 'price':
      return event.price;
    case 'ticker':
      return event.bid?.price ?? event.last?.price;
    case 'book':
      return event.bids[0]?.price;
    default:
      return ctx.market(event.market).price?.value;
  }
}

/** An exit's reason, a plain object (its words made at once: see describeExit). */
export function exitReason(kind: ExitKind, level: number, price: number | undefined, at: number, decimals: number): ExitReason {
  return { kind, level, price, at, text: describeExit(kind, level, decimals) };
}

const WORDS: Record<ExitKind, string> = {
  'stop-loss': 'stop-loss',
  'take-profit': 'take-profit',
  'trailing-stop': 'trailing stop',
  signal: 'exit signal',
};

/** "stop-loss at 58,800.00": the rule and the level, at `decimals` places with thousands separators. */
export function describeExit(kind: ExitKind, level: number, decimals: number): string {
  // by hand: toLocaleString costs about 20 µs a call, and a split and a regular expression about 0.3 µs,
  // where a backtest describes every exit; this loop takes about 0.1 µs
  const fixed = level.toFixed(decimals);
  // exponent notation (1e+21 and up), Infinity and NaN are written as toFixed gives them
  if (!Number.isFinite(level) || Math.abs(level) >= 1e21) return `${WORDS[kind]} at ${fixed}`;
  const dot = fixed.indexOf('.');
  const end = dot < 0 ? fixed.length : dot;
  const sign = fixed.charCodeAt(0) === 45 ? 1 : 0; // '-'
  const lead = (end - sign) % 3 || 3;
  let grouped = fixed.slice(0, sign + lead);
  for (let i = sign + lead; i < end; i += 3) grouped += `,${fixed.slice(i, i + 3)}`;
  return `${WORDS[kind]} at ${grouped}${fixed.slice(end)}`;
}
