import type { z } from 'zod';
import type { Dec, ExecReport, Instrument, Intent, MarketEvent, MarketSymbol } from '../core/index.js';
import type { MarketSnapshot, OpenOrderView, PriceHistory } from '../state/index.js';
import { parseTimeframe, type Bar, type BarNeed, type BarSeries } from '../bars/index.js';
import { plotStyleProblems, type PlotStyle } from './plots.js';

/** An intent as a strategy writes it: the engine stamps `intentId` (the future ref_id) and `strategy`. */
export type IntentDraft = Intent extends infer I
  ? I extends Intent
    ? Omit<I, 'intentId' | 'strategy'> & { readonly intentId?: string }
    : never
  : never;

/** Read-only views a strategy gets; nothing in it can change the engine. */
export interface StrategyContext {
  /** Engine time, epoch ms (the test clock in a backtest). */
  now(): number;
  /** Latest snapshot of a market; never newer than `now()`. */
  market(symbol: MarketSymbol): MarketSnapshot;
  /** Bounded history of reference prices of a market. */
  history(symbol: MarketSymbol): PriceHistory;
  /**
   * The closed bars of a series the strategy declared (`bars`), oldest first, bounded; a bar is in it
   * from the moment it closes, never before. Throws for a series not declared.
   */
  bars(symbol: MarketSymbol, timeframe: string): BarSeries;
  /**
   * The market's instrument as the venue describes it, in every mode: price tick, decimals of amounts
   * and size caps. Round with `roundPrice`, `roundBase` and `roundQuote` so the platform never refuses
   * an order for precision. Throws for a market the venue does not list.
   */
  instrument(symbol: MarketSymbol): Instrument;
  /**
   * True while the engine replays history before going live: indicators fill, and whatever the
   * handler returns is dropped (nothing is decided, sent or reported). Use it to skip order state.
   */
  readonly warmingUp: boolean;
  readonly account: AccountView;
  /**
   * The id the engine gave an intent this strategy returned (the same object): its `refId` in every
   * report and its `ref_id` at the venue. Undefined for an object the strategy has not returned yet,
   * or returned on warm-up (dropped). Lets a strategy match reports to its own orders exactly.
   */
  intentIdOf(intent: IntentDraft): string | undefined;
  /**
   * This strategy's own position in a market, kept by the engine from the strategy's own fills (orders
   * and quote executions) as each is reported, never waiting for a balance poll; continued across
   * restarts from the journal. Another strategy's inventory is never in it.
   */
  position(symbol: MarketSymbol): OwnPosition;
  /** Records the exit levels in force on this strategy's position (journaled with it; back after a restart). */
  keepExitLevels(symbol: MarketSymbol, levels: KeptExitLevels): void;
  /**
   * Records `value` of the indicator series `name` in `symbol` at `now()`, for the dashboard and the
   * backtest report to draw (declare how in `plots`). NaN or undefined is "no value at this time" (a
   * gap); Infinity or a non-number stops the strategy like a throw. A name is 1 to 40 characters of
   * letters, digits, space, _ . -; at most 8 names per market. A second value at one time replaces the first.
   */
  plot(symbol: MarketSymbol, name: string, value: number | undefined): void;
}

/** Exit levels kept with a position: the price of each rule in force, and the highest price since the entry. */
export interface KeptExitLevels {
  readonly stopLoss?: number;
  readonly takeProfit?: number;
  readonly trailingStop?: number;
  readonly highest?: number;
}

/** One strategy's position in one market (see `StrategyContext.position`). Money in the quote asset. */
export interface OwnPosition {
  readonly market: MarketSymbol;
  /** Base held from this strategy's own fills (buys less sells, less a commission taken in the base asset). */
  readonly amount: Dec;
  /** Cost per unit held, fees included; undefined when flat. */
  readonly averageCost: Dec | undefined;
  /** P&L of what was sold against the average cost, fees included. */
  readonly realizedPnl: Dec;
  /** Fees paid in this market. */
  readonly fees: Dec;
  /** (mid − average cost) × amount; undefined when flat or without a price. */
  readonly unrealizedPnl: Dec | undefined;
  /** When the position was entered from flat (its first buy fill), epoch ms; undefined when flat. */
  readonly entryAt: number | undefined;
  readonly exitLevels: KeptExitLevels;
  /**
   * What the risk gate lets this strategy sell now: its own amount less its open sells; where it is
   * the market's only strategy, or `risk.positions` is `shared`, the balance no strategy holds too.
   */
  readonly sellable: Dec;
}

export interface AccountView {
  /** Balance usable for new orders, after what open orders hold. */
  available(asset: string): Dec;
  /** Available plus held by open orders. */
  total(asset: string): Dec;
  /**
   * The strategy's own open orders, from the moment the risk gate approved each until the venue
   * reports it closed (so an order just made is listed before any poll has seen it).
   */
  openOrders(market?: MarketSymbol): readonly OpenOrderView[];
}

/** What `create` returns. Handlers are synchronous and pure apart from their own indicator state. */
export interface StrategyHandlers {
  /** Called for each market event of a subscribed market, after the stores have applied it. */
  onEvent?(event: MarketEvent, ctx: StrategyContext): readonly IntentDraft[] | IntentDraft | undefined | void;
  /**
   * Called for each bar of a declared series as it closes, at its close time on the engine's clock
   * (before the point that came at or after it is applied). Bars closing at one boundary are all in
   * `ctx.bars` first, then delivered shortest timeframe first (the 1h bar before the 4h bar).
   */
  onBar?(bar: Bar, ctx: StrategyContext): readonly IntentDraft[] | IntentDraft | undefined | void;
  /** Called for each execution report of this strategy's intents. */
  onReport?(report: ExecReport, ctx: StrategyContext): readonly IntentDraft[] | IntentDraft | undefined | void;
}

export interface StrategyDefinition<P extends z.ZodObject = z.ZodObject> {
  /** Plugin name, kebab-case; also the default instance name. */
  readonly name: string;
  readonly description: string;
  /** Parameter schema with defaults: validates YAML and CLI params and gives the optimizer its space. */
  readonly params: P;
  /** Markets the strategy trades, fixed or chosen from params. */
  readonly markets: readonly MarketSymbol[] | ((params: z.infer<P>) => readonly MarketSymbol[]);
  /** Event kinds the strategy needs the market source to poll (default: price). */
  readonly needs?: ReadonlyArray<MarketEvent['kind']>;
  /**
   * The bar series the strategy needs (`onBar`, `ctx.bars`): market, timeframe (1m, 5m, 15m, 1h, 4h,
   * 1d) and optionally how many closed bars to keep (`history`, default 500); several timeframes of
   * one market allowed. Fixed or chosen from params.
   */
  readonly bars?: readonly BarNeed[] | ((params: z.infer<P>) => readonly BarNeed[]);
  /**
   * How many price points the strategy must see before it can decide (its indicators' warm-up), for
   * given params: e.g. `(p) => p.slow` for a moving-average cross. Reports use it to say why a short
   * backtest made no decision. Optional: without it, the longest period-like param is taken.
   */
  readonly warmUp?: (params: z.infer<P>) => number;
  /**
   * How the series the strategy plots (`ctx.plot`) are drawn, by name: over the price (default) or in
   * a pane of their own (an oscillator such as the RSI), and in which colour. A series plotted without
   * a declaration is drawn over the price.
   */
  readonly plots?: Readonly<Record<string, PlotStyle>>;
  create(params: z.infer<P>): StrategyHandlers;
}

const NAME = /^[a-z][a-z0-9-]*$/;

/**
 * Declares a strategy plugin; a plugin file's default export is the result. Checks the definition
 * at load time so a broken plugin fails with its name and the field to fix.
 */
export function defineStrategy<P extends z.ZodObject>(definition: StrategyDefinition<P>): StrategyDefinition<P> {
  const problems: string[] = [];
  if (typeof definition.name !== 'string' || !NAME.test(definition.name)) problems.push('name: a kebab-case string such as "sma-cross"');
  if (typeof definition.description !== 'string' || definition.description.trim() === '') problems.push('description: a non-empty string');
  if (typeof definition.params?.safeParse !== 'function')
    problems.push('params: a zod object schema, e.g. z.object({ fast: z.number().default(10) })');
  if (!Array.isArray(definition.markets) && typeof definition.markets !== 'function')
    problems.push('markets: an array of market symbols or a function of params');
  if (typeof definition.create !== 'function') problems.push('create: a function (params) => handlers');
  if (definition.warmUp !== undefined && typeof definition.warmUp !== 'function')
    problems.push('warmUp: a function (params) => number of price points, or leave it out');
  if (definition.bars !== undefined && !Array.isArray(definition.bars) && typeof definition.bars !== 'function')
    problems.push('bars: an array of { market, timeframe } or a function of params, or leave it out');
  if (Array.isArray(definition.bars)) problems.push(...barProblems(definition.bars));
  problems.push(...plotStyleProblems(definition.plots));
  if (problems.length) throw new TypeError(`invalid strategy definition ${JSON.stringify(definition.name)}: ${problems.join('; ')}`);
  return Object.freeze(definition);
}

/** Resolves the markets of a definition for given params. */
export function marketsOf<P extends z.ZodObject>(definition: StrategyDefinition<P>, params: z.infer<P>): readonly MarketSymbol[] {
  return typeof definition.markets === 'function' ? definition.markets(params) : definition.markets;
}

/** Resolves the bar series of a definition for given params (checked: a bad timeframe names the field). */
export function barsOf<P extends z.ZodObject>(definition: StrategyDefinition<P>, params: z.infer<P>): readonly BarNeed[] {
  const needs = typeof definition.bars === 'function' ? definition.bars(params) : (definition.bars ?? []);
  const problems = barProblems(needs);
  if (problems.length) throw new TypeError(`invalid strategy definition ${JSON.stringify(definition.name)}: ${problems.join('; ')}`);
  return needs;
}

function barProblems(needs: readonly BarNeed[]): string[] {
  return needs.flatMap((n, i) => {
    if (typeof n?.market !== 'string' || n.market === '') return [`bars[${i}].market: a market symbol such as "BTCUSD"`];
    try {
      parseTimeframe(n.timeframe, `bars[${i}].timeframe`);
      return [];
    } catch (e) {
      return [(e as Error).message];
    }
  });
}
