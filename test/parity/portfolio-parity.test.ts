/**
 * Portfolio parity: a two-market, three-strategy config backtested (backtest/portfolio.ts) and run
 * live on the embedded sandbox over loopback, both on the same prices, make the same decisions in the
 * same order: the strategy, the intent, and the outcome or denial code (two strategies compete for the
 * same USD; the one first in the config's market order wins it in both).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MarketSeries } from '../../backtest/merge.js';
import { runPortfolioBacktest } from '../../backtest/portfolio.js';
import { RiskLimitsSchema } from '../../src/config/index.js';
import type { Decision } from '../../src/core/index.js';
import { marketsOf, resolveParams, type StrategyDefinition } from '../../src/strategy/index.js';
import { spender } from '../backtest/portfolio-kit.js';
import { startLiveHarness, type LiveHarness } from '../support/live-harness.js';
import { T0 } from '../support/sandbox-fixture.js';

const STEP = 60_000;
const POINTS = 12;
const RISK = { stale_after_ms: 300_000, max_intents_per_minute: 600, max_order_notional: '100000', price_band_bps: 6_000 };
const FUNDING = { USD: '10000' };
const strategies = [
  spender('btc-a', { market: 'BTCUSD', usd: '6000', buy_at: 2, sell_at: 5 }),
  spender('eth-b', { market: 'ETHUSD', usd: '6000', buy_at: 2, sell_at: 6 }),
  spender('btc-c', { market: 'BTCUSD', usd: '3000', buy_at: 3 }),
] as unknown as StrategyDefinition[];

function flat(market: string, price: number): MarketSeries {
  const times = new Float64Array(POINTS).map((_, i) => T0 + i * STEP);
  return { market: market as never, source: `${market} flat`, times, prices: new Float64Array(POINTS).fill(price) };
}
const series = [flat('BTCUSD', 60_000), flat('ETHUSD', 3_000)];
const trace = (d: Decision): string =>
  `${d.intent.strategy} ${d.intent.kind === 'place-order' ? d.intent.side : d.intent.kind} ${d.kind === 'approve' ? 'approve' : d.reason.code}`;

let harness: LiveHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('portfolio parity: backtest and the embedded sandbox', () => {
  it('makes the same decisions for a two-market, three-strategy config', { timeout: 120_000 }, async () => {
    const backtest: string[] = [];
    await runPortfolioBacktest({
      strategies: strategies.map((d) => {
        const params = resolveParams(d, {}) as Record<string, unknown>;
        return { name: d.name, definition: d, params, markets: marketsOf(d, params as never) };
      }),
      series,
      initial: FUNDING,
      feeBps: 10,
      limits: RiskLimitsSchema.parse(RISK),
      onDecision: (d) => backtest.push(trace(d)),
    });
    expect(backtest).toEqual(['btc-a BUY approve', 'eth-b BUY INSUFFICIENT_BALANCE', 'btc-c BUY approve', 'btc-a SELL approve']);

    const live: string[] = [];
    const intervals = {
      prices_ms: STEP,
      ticker_ms: STEP,
      book_ms: STEP,
      quotes_ms: STEP,
      balances_ms: STEP,
      orders_ms: STEP,
      warmup_points: 0,
    };
    const replay = Object.fromEntries(
      series.map((s) => [s.market, { series: { source: s.source, length: POINTS, times: s.times, prices: s.prices } }]),
    );
    harness = await startLiveHarness(
      strategies[0]!,
      {},
      { streams: intervals, risk: RISK },
      { ...FUNDING },
      { sim: { replay } },
      strategies.slice(1),
    );
    harness.run.kernel.decisions$.subscribe((d) => live.push(trace(d)));
    for (let i = 0; i < POINTS * 4 && live.length < backtest.length; i++) {
      await harness.step(STEP / 4, 1_000);
      await harness.run.kernel.drain();
    }
    expect(live).toEqual(backtest);
  });
});
