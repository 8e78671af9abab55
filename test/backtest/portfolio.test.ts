/**
 * The portfolio backtest: three strategies on two markets on one account, balances checked by hand;
 * the data errors (a market without data, data no strategy trades, a duplicate timestamp); the tie
 * rule of the merge.
 */
import { describe, expect, it } from 'vitest';
import { DIP_BARS } from '../support/dip-bars.js';
import { MergedSeries, type MarketSeries } from '../../backtest/merge.js';
import { runPortfolioBacktest, type PortfolioStrategy } from '../../backtest/portfolio.js';
import { RiskLimitsSchema } from '../../src/risk/limits.js';
import { z } from 'zod';
import { defineStrategy, loadStrategy, resolveParams, type IntentDraft } from '../../src/strategy/index.js';
import { spendOnce } from './portfolio-kit.js';
import { stopAndSave } from '../support/stop-and-save.js';

const T0 = Date.UTC(2024, 0, 1);
const H = 3_600_000;

function series(market: string, prices: number[], start = T0, step = H): MarketSeries {
  return {
    market: market as never,
    source: `${market}.csv`,
    times: Float64Array.from(prices, (_, i) => start + i * step),
    prices: Float64Array.from(prices),
  };
}

function strategy(name: string, params: Record<string, unknown>, allocation?: string): PortfolioStrategy {
  const p = resolveParams(spendOnce, params, 'params') as Record<string, unknown>;
  return { name, definition: spendOnce, params: p, markets: [p.market as never], ...(allocation !== undefined && { allocation }) };
}

const limits = RiskLimitsSchema.parse({ price_band_bps: 6_000 });

describe('portfolio backtest', () => {
  it('runs three strategies on two markets on one account: the first in config order takes the USD, the other is denied', async () => {
    const run = await runPortfolioBacktest({
      strategies: [
        strategy('btc-a', { market: 'BTCUSD', usd: '6000', buy_at: 1, sell_at: 3 }),
        strategy('eth-b', { market: 'ETHUSD', usd: '6000', buy_at: 1 }),
        strategy('btc-c', { market: 'BTCUSD', usd: '3000', buy_at: 2 }),
      ],
      series: [series('BTCUSD', [20_000, 20_000, 21_000, 22_000]), series('ETHUSD', [1_000, 1_000, 1_100, 1_200])],
      initial: { USD: '10000' },
      feeBps: 10,
      limits,
    });
    // t0: BTCUSD's point comes first (config order): btc-a's 6000 USD buy is approved and reserves
    // 6006 (fee 10 bps); then ETHUSD's point at the same time: eth-b's 6000 USD finds 3994 free, denied
    const [a, b, c] = run.strategies;
    expect(b).toMatchObject({ name: 'eth-b', decided: 1, approved: 0, denials: { INSUFFICIENT_BALANCE: 1 }, pnl: 0 });
    // t1: btc-a fills at 20000: 6000 USD buys 0.3 BTC less the 0.1 % fee taken in BTC = 0.2997;
    // btc-c asks 3000 USD, which fills at t2 at 21000: 3000 / 21000 × 0.999 = 0.14271428 BTC
    // t2: btc-a sells its own 0.2997 BTC, filled at t3 at 22000: 6593.40 less 6.5934 fee
    expect(a).toMatchObject({
      name: 'btc-a',
      approved: 2,
      roundTrips: 1,
      wins: 1,
      fees: '12.5934',
      realizedPnl: '586.8066',
      positions: [{ market: 'BTCUSD', amount: '0' }],
    });
    expect(c).toMatchObject({ name: 'btc-c', approved: 1, fees: '3', positions: [{ market: 'BTCUSD', amount: '0.14271428' }] });
    // open at 22000 against its cost (3000 USD, less the fraction of a cent the 8-decimal base leaves)
    expect(c!.unrealizedPnl).toBeCloseTo(0.14271428 * 22_000 - 3_000, 3);
    // USD: 10000 − 6000 − 3000 + 6586.80 (the ledger keeps USD to the cent) = 7586.80
    expect(run.finalBalances).toEqual({ USD: '7586.8', BTC: '0.14271428' });
    expect([...run.equity]).toEqual([
      10_000,
      10_000,
      9_994,
      9_994,
      1_000 + 0.44241428 * 21_000,
      1_000 + 0.44241428 * 21_000,
      7_586.8 + 0.14271428 * 22_000,
      7_586.8 + 0.14271428 * 22_000,
    ]);
    expect(run.markets.map((m) => [m.market, m.held, m.exposure])).toEqual([
      ['BTCUSD', '0.14271428', 0.14271428 * 22_000],
      ['ETHUSD', '0', 0],
    ]);
    expect(run.feesPaid).toBe('15.5934');
    expect(run.decisions).toEqual({ approve: 3, INSUFFICIENT_BALANCE: 1 });
  });

  it('merges by time: equal times in the order the markets are given, different spacings each at its own points', () => {
    const m = new MergedSeries([series('BTCUSD', [1, 2, 3], T0, 2 * H), series('ETHUSD', [10, 20, 30, 40, 50], T0, H)]);
    const order: string[] = [];
    for (let k = m.next(); k >= 0; k = m.next()) order.push(`${k === 0 ? 'B' : 'E'}${m.point}`);
    expect(order).toEqual(['B0', 'E0', 'E1', 'B1', 'E2', 'E3', 'B2', 'E4']);
    expect(m.total).toBe(8);
  });

  it('refuses a market without data, data no strategy trades and markets of two quote assets, before the run', async () => {
    const btc = series('BTCUSD', [20_000, 20_000]);
    const run = (strategies: PortfolioStrategy[], s: MarketSeries[]) => runPortfolioBacktest({ strategies, series: s, limits });
    await expect(run([strategy('a', { market: 'BTCUSD' }), strategy('b', { market: 'ETHUSD' })], [btc])).rejects.toThrow(
      /--data: no data for ETHUSD \(traded by strategy b\): add --data ETHUSD=FILE/,
    );
    await expect(run([strategy('a', { market: 'BTCUSD' })], [btc, series('ETHUSD', [1, 2])])).rejects.toThrow(
      /ETHUSD=ETHUSD.csv: no strategy of the config trades ETHUSD/,
    );
    await expect(
      run([strategy('a', { market: 'BTCUSD' }), strategy('b', { market: 'BTCEUR' })], [btc, series('BTCEUR', [1, 2])]),
    ).rejects.toThrow(/priced in USD and EUR/);
  });

  it('gives each strategy its own P&L and correlates their daily changes', async () => {
    const D = 86_400_000;
    const run = await runPortfolioBacktest({
      strategies: [strategy('x', { market: 'BTCUSD', usd: '1000' }), strategy('y', { market: 'ETHUSD', usd: '1000' })],
      series: [series('BTCUSD', [100, 100, 110, 105, 120, 100], T0, D), series('ETHUSD', [10, 10, 11, 10.5, 12, 10], T0, D)],
      initial: { USD: '10000' },
      limits,
    });
    // the two markets move alike, day by day: the strategies' daily P&L changes correlate fully
    expect(run.correlation.days).toBeGreaterThanOrEqual(4);
    expect(run.correlation.matrix[0]![1]).toBeCloseTo(1, 6);
    expect(run.strategies.map((s) => s.pnl)).toEqual([expect.closeTo(run.strategies[1]!.pnl, 6), expect.any(Number)]);
  });

  it("the config's holdings make starting base a strategy's own (at the first price); the rest is no strategy's to sell", async () => {
    const dumper = defineStrategy({
      name: 'dumper',
      description: 'sells 0.1 BTC it never bought at its first price',
      params: z.object({}),
      markets: ['BTCUSD'],
      create: () => {
        let n = 0;
        return {
          onEvent: (e): IntentDraft | undefined =>
            e.kind === 'price' && ++n === 1
              ? { kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'MARKET', baseAmount: '0.1' }
              : undefined,
        };
      },
    });
    const holder = strategy('holder', { market: 'BTCUSD', buy_at: 0, sell_at: 2 });
    const btc = series('BTCUSD', [20_000, 21_000, 22_000, 22_000]);
    const run = await runPortfolioBacktest({
      strategies: [
        { ...holder, holdings: [{ key: 'strategies.0.holdings.BTCUSD', market: 'BTCUSD', amount: '0.4' }] },
        { name: 'dumper', definition: dumper, params: {}, markets: ['BTCUSD'] as never },
      ],
      series: [btc],
      initial: { USD: '1000', BTC: '1' },
      feeBps: 10,
      limits,
    });
    const [h, d] = run.strategies;
    // holder sells its 0.4 BTC (cost 20000 each) at its 2nd price, filled at 22000: 8800 less 8.8 fee
    expect(h).toMatchObject({
      name: 'holder',
      approved: 1,
      roundTrips: 1,
      realizedPnl: '791.2',
      positions: [{ market: 'BTCUSD', amount: '0' }],
    });
    // the other 0.6 BTC belongs to no strategy: dumper's sell is denied, and it stays
    expect(d).toMatchObject({ name: 'dumper', approved: 0, denials: { OWN_POSITION: 1 } });
    expect(run.finalBalances).toEqual({ USD: '9791.2', BTC: '0.6' });

    const bad = (holdings: PortfolioStrategy['holdings']) =>
      runPortfolioBacktest({ strategies: [{ ...holder, holdings }], series: [btc], initial: { USD: '1000', BTC: '1' }, limits });
    await expect(bad([{ key: 'strategies.0.holdings.BTCUSD', market: 'BTCUSD', amount: '1.5' }])).rejects.toThrow(
      /strategies\.0\.holdings\.BTCUSD.*1\.5 BTC assigned, but the backtest starts with 1 BTC: fund it/,
    );
    await expect(bad([{ key: 'strategies.0.holdings.ETHUSD', market: 'ETHUSD', amount: '1' }])).rejects.toThrow(
      /strategies\.0\.holdings\.ETHUSD.*holder does not trade ETHUSD/,
    );
  });

  it("a held-rate quote bought at one market's point frees its reservation for the next market's point of the same time", async () => {
    const dca = await loadStrategy('quote-dca');
    const run = await runPortfolioBacktest({
      strategies: [
        {
          name: 'dca',
          definition: dca,
          params: resolveParams(dca, { market: 'BTCUSD', quote_amount: '100.00', interval_ms: 86_400_000 }, 'params') as Record<
            string,
            unknown
          >,
          markets: ['BTCUSD'] as never,
        },
        strategy('eth', { market: 'ETHUSD', usd: '898', buy_at: 2 }),
      ],
      series: [series('BTCUSD', [20_000, 20_000, 20_000]), series('ETHUSD', [1_000, 1_000, 1_000])],
      initial: { USD: '1000' },
      feeBps: 10,
      limits,
    });
    // dca executes a 100 USD quote at t0 (the held rate, no fee); eth's 898 USD (898.898 with its fee)
    // at t1 needs the 900 left: with the quote's 100 still reserved it was denied (800 available)
    const [d, e] = run.strategies;
    expect(d).toMatchObject({ name: 'dca', approved: 1 });
    expect(e).toMatchObject({ name: 'eth', approved: 1, denials: {} });
    expect(run.finalBalances.USD).toBe('2');
  });

  it('a transfer between profiles and a stop order beside another market: settled on the one account as in a run', async () => {
    const run = await runPortfolioBacktest({
      strategies: [
        { name: 'saver', definition: stopAndSave, params: {}, markets: ['BTCUSD'] as never },
        strategy('eth', { market: 'ETHUSD', usd: '500', buy_at: 1 }),
      ],
      series: [series('BTCUSD', [10, 10, 11, 9.5, 9, 8]), series('ETHUSD', [100, 100, 100, 100, 100, 100])],
      initial: { USD: '10000' },
      feeBps: 10,
      limits: RiskLimitsSchema.parse({ price_band_bps: 6_000 }),
    });
    const [saver, eth] = run.strategies;
    // saver: 1000 USD buys 99.9 BTC at 10 (fee 1); its stop at 9 fires at 9 (898.20 credited) and its
    // transfer sends 100 USD to the savings profile; eth's 500 USD buys 4.995 ETH at 100 (fee 0.5)
    expect(saver).toMatchObject({ approved: 3, roundTrips: 1, denials: {} });
    expect(eth).toMatchObject({ approved: 1, positions: [{ market: 'ETHUSD', amount: '4.995' }] });
    expect(run.finalBalances).toEqual({ USD: '9298.2', BTC: '0', ETH: '4.995' }); // 10000 − 1000 − 500 − 100 + 898.20
  });

  it("fills inside an OHLCV market's bars beside a market of closes: a position's stop-loss on the low, a bar strategy's bars the rows", async () => {
    // hourly bars: sma-cross 2/3 buys at bar 6's open (103); bar 7's low (95) goes through its 5 % stop
    // (97.85) and the bar closes at 103.8
    const rows = DIP_BARS;
    const col = (k: number) => Float64Array.from(rows, (r) => r[k]!);
    const btc: MarketSeries = {
      ...series(
        'BTCUSD',
        rows.map((r) => r[3]!),
      ),
      opens: col(0),
      highs: col(1),
      lows: col(2),
      volumes: col(0).fill(1),
    };
    const sma = await loadStrategy('sma-cross');
    const smaParams = resolveParams(sma, { market: 'BTCUSD', fast: 2, slow: 3, stop_loss_pct: 5 }, 'params') as Record<string, unknown>;
    const highs: number[] = [];
    const probe = defineStrategy({
      name: 'probe',
      description: 'hears the hourly bars of BTCUSD',
      params: z.object({}),
      markets: ['BTCUSD'],
      bars: [{ market: 'BTCUSD', timeframe: '1h', history: 2 }],
      create: () => ({ onBar: (bar) => void highs.push(bar.high) }),
    });
    const run = await runPortfolioBacktest({
      strategies: [
        { name: 'sma', definition: sma, params: smaParams, markets: ['BTCUSD'] },
        { name: 'probe', definition: probe, params: {}, markets: ['BTCUSD'] },
        strategy('eth', { market: 'ETHUSD', usd: '100', buy_at: 2 }),
      ],
      series: [btc, series('ETHUSD', [10, 10.5, 11, 11.5, 12, 12.5, 13, 13.5, 14, 14.5])],
      initial: { USD: '10000' },
      feeBps: 0,
      limits,
    });
    const trips = run.markets[0]!.trades.map((t) => [t.entryAt - T0, String(t.entryPrice), t.exitAt - T0, String(t.exitPrice)]);
    expect(trips).toEqual([[6 * H, '103', 7 * H, '97.85']]);
    // the bars are the file's rows (a bar's high is its row's, not a close), each heard once it closed
    expect(highs).toEqual(rows.slice(0, 9).map((r) => r[1]));
    // the market of closes fills at its next point: bought at its 3rd price
    expect(run.markets[1]!.held).toBe('9.09090909');
  });
});
