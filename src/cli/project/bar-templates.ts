/**
 * What `tradeloop new-strategy --bars` writes: a bar strategy (it declares its bars, decides in
 * `onBar` as each closes and reads `ctx.bars`) and its test on the test kit's candles.
 */
import type { TestRunner } from './templates.js';

export function barPluginTemplate(name: string): string {
  return `/**
 * ${name}: describe what it trades and why. This example trades 1h bars with a 4h trend filter: it buys
 * when a 1h bar closes above the highest high of the \`period\` 1h bars before it while the latest 4h
 * bar closed above its open, and sells the whole position when a 1h bar closes below its EMA of 1h
 * closes. A bar reaches \`onBar\` (and \`ctx.bars\`) when it closes, never before; at a boundary both
 * series share, the 1h bar is heard first, with the 4h bar closing there already in \`ctx.bars\`.
 */
import { defineStrategy, Ema, Position, updateWithBar, z } from 'tradeloop';

export default defineStrategy({
  name: '${name}',
  description: 'buy a 1h breakout while the 4h bar is up, sell below the 1h EMA',
  params: z.object({
    market: z.string().default('BTCUSD'),
    period: z.number().int().min(1).default(20).describe('1h bars whose highest high a close must break'),
    ema: z.number().int().min(2).default(10).describe('1h closes in the exit EMA'),
    size_pct: z.number().gt(0).max(100).default(50),
  }),
  markets: (p) => [p.market],
  // the bars it reads: several timeframes of a market allowed; \`history\` closed bars are kept (and warmed up)
  bars: (p) => [
    { market: p.market, timeframe: '1h', history: p.period + 1 },
    { market: p.market, timeframe: '4h', history: 2 },
  ],
  create(p) {
    const ema = new Ema(p.ema);
    const position = new Position(p.market, { sizePct: p.size_pct });
    return {
      onBar(bar, ctx) {
        if (bar.timeframe !== '1h') return undefined;
        const average = updateWithBar(ema, bar); // indicators take bars (ATR: high, low, close; the rest: close)
        const hours = ctx.bars(p.market, '1h'); // closed 1h bars, oldest first; this one is the newest
        if (position.held(ctx)) return average !== undefined && bar.close < average ? position.exitAll(ctx) : undefined;
        if (hours.length <= p.period) return undefined;
        const highest = Math.max(...hours.latest(p.period + 1).slice(0, -1).map((b) => b.high));
        const trend = ctx.bars(p.market, '4h').last();
        return bar.close > highest && trend !== undefined && trend.close > trend.open ? position.enter(ctx) : undefined;
      },
      onReport(r, ctx) {
        position.onReport(r, ctx);
      },
    };
  },
});
`;
}

export function barTestTemplate(name: string, runner: TestRunner): string {
  const head =
    runner === 'vitest'
      ? `import { describe, expect, it } from 'vitest';\nimport { StrategyTestKit } from 'tradeloop/testkit';\nimport plugin from './${name}.js';\n`
      : `import assert from 'node:assert/strict';\nimport { describe, it } from 'node:test';\nimport { StrategyTestKit } from 'tradeloop/testkit';\nimport plugin from './${name}.js';\n`;
  const equal = (actual: string, expected: string): string =>
    runner === 'vitest' ? `expect(${actual}).toEqual(${expected});` : `assert.deepEqual(${actual}, ${expected});`;
  return `${head}
const START = Date.UTC(2025, 0, 1);
/** An hourly candle around 100 closing at \`close\`. */
const candle = (close: number) => ({ open: 100, high: 101, low: 99, close, volume: 1 });

describe('${name}', () => {
  it('buys when a 1h bar closes above the channel while the 4h bar is up, as that bar closes', () => {
    const kit = new StrategyTestKit(plugin, { period: 3, size_pct: 50 }, { USD: '1000' }, START);
    // four rising hours: the 4h bar of 00:00 closes up at 04:00
    ${equal(`kit.candles('BTCUSD', '1h', [candle(100.1), candle(100.2), candle(100.3), candle(100.4)], START)`, '[]')}
    ${equal(`kit.candles('BTCUSD', '1h', [{ open: 100.4, high: 104, low: 100.4, close: 103, volume: 2 }])`, `[{ kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '500.00' }]`)}
    ${equal('kit.clock.now()', 'START + 5 * 3_600_000')}
  });

  it('hears the 1h bar before the 4h bar when both close', () => {
    const kit = new StrategyTestKit(plugin, {}, { USD: '1000' }, START);
    kit.candles('BTCUSD', '1h', [candle(100), candle(100), candle(100), candle(100)], START);
    ${equal(`kit.barsSeen.slice(-2).map((b) => b.timeframe)`, `['1h', '4h']`)}
  });
});
`;
}
