/**
 * A strategy tuned inside a two-strategy config over two markets, with figures worked by hand. No fee,
 * no slippage; a market order fills at the price of the point after the one it was decided on. `eth`
 * buys 1000 USD of ETHUSD at its first price, filled at the second (120): 8.3333333 ETH (ETH's 7
 * decimals); it sells them at its `sell_at`-th price, filled at the next: 150, 130 or 110 for sell_at
 * 2, 3 or 4, so its own P&L is 8.3333333 × (that − 120) = 249.9999999, 83.3333333, −83.3333333 and
 * 2 is the best. `btc` buys 2000 USD of BTCUSD and holds: its P&L is the same whatever eth does, so
 * the account's final equity differs across the rows by eth's P&L alone.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseGrid } from '../../backtest/optimize/grid.js';
import { runOptimize } from '../../backtest/optimize/optimize.js';
import type { PortfolioJobSpec } from '../../backtest/optimize/portfolio-job.js';
import type { MarketSymbol } from '../../src/core/index.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-optimize-hand-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const plugin = join(dir, 'spend.mjs');
writeFileSync(
  plugin,
  `import { defineStrategy, z } from 'tradeloop';
export default defineStrategy({
  name: 'spend', description: 'buys usd of its market at its first price, sells its position at its sell_at-th',
  params: z.object({ market: z.string(), usd: z.string(), sell_at: z.number().int().default(0) }),
  markets: (p) => [p.market],
  create: (p) => {
    let n = 0;
    return { onEvent: (e, ctx) => {
      if (e.kind !== 'price' || e.market !== p.market) return undefined;
      n++;
      if (n === 1) return { kind: 'place-order', market: p.market, side: 'BUY', type: 'MARKET', quoteAmount: p.usd };
      const own = ctx.position(p.market).amount;
      if (n === p.sell_at && own.gt(0)) return { kind: 'place-order', market: p.market, side: 'SELL', type: 'MARKET', baseAmount: own.toFixed() };
      return undefined;
    } };
  },
});
`,
);

const T0 = Date.UTC(2024, 0, 1);
const H = 3_600_000;
const market = (m: string, prices: number[]) => ({
  market: m as MarketSymbol,
  source: `${m}.csv`,
  times: Float64Array.from(prices, (_, i) => T0 + i * H),
  prices: Float64Array.from(prices),
});
const series = [market('BTCUSD', [20_000, 20_500, 19_000, 21_000, 21_000]), market('ETHUSD', [100, 120, 150, 130, 110])];
const portfolio = (objective: PortfolioJobSpec['objective']): PortfolioJobSpec => ({
  entries: [
    { plugin, name: 'btc', params: { market: 'BTCUSD', usd: '2000' } },
    { plugin, name: 'eth', params: { market: 'ETHUSD', usd: '1000', sell_at: 0 } },
  ] as PortfolioJobSpec['entries'],
  file: 'bot.yaml',
  target: 'eth',
  objective,
  series,
});

describe('a strategy tuned inside a config, figures by hand', () => {
  const run = (objective: PortfolioJobSpec['objective'], metric: 'return' | 'final_equity') =>
    runOptimize({
      strategy: join(dir, 'bot.yaml'),
      series: { ...series[0]!, length: 5 },
      portfolio: portfolio(objective),
      grid: parseGrid('sell_at=2|3|4'),
      metric,
      feeBps: 0,
      slippageBps: 0,
      workers: 2,
    });

  it("ranks eth's own P&L: sell_at 2 (249.9999999) above 3 (83.3333333) above 4 (−83.3333333)", async () => {
    const r = await run('strategy', 'return');
    expect(r.failed).toBe(0);
    expect(r.rows.map((x) => x.params.sell_at)).toEqual([2, 3, 4]);
    const pnl = [249.9999999, 83.3333333, -83.3333333];
    r.rows.forEach((x, k) => {
      expect(x.metrics?.pnl).toBeCloseTo(pnl[k]!, 7);
      expect(x.metrics?.return_pct).toBeCloseTo(pnl[k]! / 100, 9); // over the account's 10,000 USD
    });
  });

  it("ranks the account with objective portfolio: the rows differ by eth's P&L alone (btc's is fixed)", async () => {
    const own = await run('strategy', 'return');
    const r = await run('portfolio', 'final_equity');
    expect(r.rows.map((x) => x.params.sell_at)).toEqual([2, 3, 4]);
    const rest = r.rows.map((x, k) => (x.metrics!.final_equity! as number) - (own.rows[k]!.metrics!.pnl as number) - 10_000);
    // the account's USD settles to the cent, a strategy's own P&L is not rounded: within a cent
    for (const b of rest) expect(Math.abs(b - rest[0]!)).toBeLessThan(0.01);
    expect(rest[0]!).toBeGreaterThan(0); // btc bought below the last BTC price
  });
});
