import { ConfigError, type Config, type ConfigProblem } from '../config/index.js';
import { D, ZERO, splitMarket, type Dec, type MarketSymbol } from '../core/index.js';
import type { Kernel } from '../engine/kernel.js';
import type { Logger } from '../log/index.js';
import { midOf } from '../state/index.js';

/** One balance the config assigns to a strategy (`strategies[].holdings`). */
export interface HoldingAssignment {
  /** Where the config gives it, `strategies.N.holdings.MARKET`: its problems name it. */
  readonly key: string;
  readonly strategy: string;
  readonly market: string;
  /** Base amount. */
  readonly amount: string;
  /** Cost basis per unit in the quote asset; absent: the market's price at start. */
  readonly price?: string;
}

/**
 * The holdings of every configured strategy, under its instance name: `names[i]` when given (the
 * name entry i runs under: its `name`, else its plugin's), else its `name`, else the plugin as written.
 */
export function holdingsOf(strategies: Config['strategies'], names?: readonly string[]): HoldingAssignment[] {
  return strategies.flatMap((s, i) =>
    Object.entries(s.holdings ?? {}).map(([market, v]) => ({
      key: `strategies.${i}.holdings.${market}`,
      strategy: names?.[i] ?? s.name ?? s.plugin,
      market,
      amount: typeof v === 'string' ? v : v.amount,
      ...(typeof v !== 'string' && v.price !== undefined && { price: v.price }),
    })),
  );
}

/**
 * At start, once the first balances are read and the warm-up has given each market a price: makes
 * each balance the config assigns (`strategies[].holdings`) that strategy's own position, at the
 * price given, else the market's price then. Every holding is checked first, and a ConfigError names
 * each bad key (no strategy of that name runs, a market it does not trade, more than is held by no
 * strategy, no price to value it at), assigning nothing. One the journal already holds is not
 * assigned again (a restart), whatever the config says now.
 */
export function assignHoldings(
  kernel: Pick<Kernel, 'positions' | 'strategies' | 'market'>,
  holdings: readonly HoldingAssignment[],
  at: number,
  log?: Logger,
): void {
  const { positions } = kernel;
  const fresh = holdings.filter((h) => {
    const kept = positions.assigned(h.strategy, h.market);
    if (kept !== undefined && !new D(kept.amount).eq(h.amount))
      log?.warn(
        { key: h.key },
        `${h.key}: the journal already assigned ${kept.amount} to ${h.strategy} in ${h.market}; a holding is assigned once, so ${h.amount} is not`,
      );
    return kept === undefined;
  });
  if (fresh.length === 0) return;
  if (!positions.balancesRead)
    throw new Error(
      `the balances could not be read before trading, so ${fresh.map((h) => h.key).join(', ')} cannot be assigned: trading not started (check the venue, then start again)`,
    );
  const problems: ConfigProblem[] = [];
  const taken = new Map<string, Dec>();
  const priced: Array<{ readonly h: HoldingAssignment; readonly price: Dec }> = [];
  for (const h of fresh) {
    const runner = kernel.strategies.find((s) => s.name === h.strategy);
    if (runner === undefined) {
      problems.push({
        path: h.key,
        message: `no strategy named ${h.strategy} runs: name a running strategy's holdings (its name, else its plugin)`,
      });
      continue;
    }
    if (!runner.markets.has(h.market as MarketSymbol)) {
      problems.push({
        path: h.key,
        message: `${h.strategy} does not trade ${h.market} (it trades ${[...runner.markets].join(', ')}): assign a holding in one of its markets`,
      });
      continue;
    }
    const base = splitMarket(h.market).base;
    const want = (taken.get(base) ?? ZERO).plus(h.amount);
    taken.set(base, want);
    const free = positions.unassignedOf(base);
    if (want.gt(free))
      problems.push({
        path: h.key,
        message: `${h.amount} ${base} is more than is held by no strategy (${free.toFixed()} ${base}${want.eq(h.amount) ? '' : `, and other holdings take ${want.minus(h.amount).toFixed()} of it`}): assign at most that`,
      });
    const mid = midOf(kernel.market.snapshot(h.market as MarketSymbol));
    const price = h.price !== undefined ? new D(h.price) : mid !== undefined ? new D(mid) : undefined;
    if (price === undefined)
      problems.push({
        path: h.key,
        message: `no price of ${h.market} is known at start to value it at: give the cost basis, e.g. { amount: "${h.amount}", price: "61000" }`,
      });
    else priced.push({ h, price });
  }
  if (problems.length > 0) throw new ConfigError(undefined, problems);
  for (const { h, price } of priced) {
    positions.assign(h.strategy, h.market as MarketSymbol, new D(h.amount), price, at);
    log?.info(
      { key: h.key, strategy: h.strategy, market: h.market, amount: h.amount, price: price.toFixed() },
      `${h.key}: ${h.amount} ${splitMarket(h.market).base} held by no strategy is now ${h.strategy}'s own in ${h.market}, at a cost of ${price.toFixed()} ${splitMarket(h.market).quote} each (journaled once)`,
    );
  }
  const left = Object.entries(positions.summary().unassigned).map(([asset, amount]) => `${amount} ${asset}`);
  log?.info(`held by no strategy after the config's holdings: ${left.length ? left.join(', ') : 'nothing'}`);
}
