/**
 * `tradeloop verify` catches what it claims to: a plugin that reads a later price (through a test-only
 * hole in a fake data source that hands each run its view of the data), one whose declared warm-up is
 * too short (with the smallest stable warm-up and the declaration to write), and hidden sources of
 * nondeterminism (a module-level counter, Math.random, a wall clock read through an injected hole);
 * a clean built-in passes. Then the command: --json, exit 0, 1 on a failed check, 2 on bad input.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { seriesSource, type VerifySource } from '../../backtest/verify/checks.js';
import { headOf } from '../../backtest/verify/decisions.js';
import { verifyStrategy, type VerifyReport } from '../../backtest/verify/verify.js';
import type { PriceSeriesLike } from '../../src/sim/prices/price-data.js';
import { defineStrategy, type StrategyDefinition } from '../../src/strategy/define.js';
import { loadStrategy } from '../../src/strategy/loader.js';
import { resolveParams } from '../../src/strategy/params.js';
import { runCli } from '../cli/cli-helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'tradeloop-verify-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const N = 160;
const T0 = Date.UTC(2024, 0, 1);
const HOUR = 3_600_000;
const series: PriceSeriesLike = {
  source: 'test prices',
  length: N,
  times: Float64Array.from({ length: N }, (_, i) => T0 + i * HOUR),
  prices: Float64Array.from({ length: N }, (_, i) => Number((100 + 10 * Math.sin(i / 7) + 3 * Math.sin(i / 2.3)).toFixed(4))),
};
const csv = join(dir, 'prices.csv');
writeFileSync(csv, `timestamp,price\n${Array.from(series.times, (t, i) => `${t},${series.prices[i]}`).join('\n')}\n`);

/** A plugin that buys 10 USD of BTCUSD at each price where `buy` says so. */
function buyer(name: string, buy: (price: number, at: number) => boolean, more: Partial<StrategyDefinition> = {}): StrategyDefinition {
  return defineStrategy({
    name,
    description: 'test plugin',
    params: z.object({ market: z.string().default('BTCUSD') }),
    markets: ['BTCUSD'],
    ...more,
    create: () => ({
      onEvent: (e) =>
        e.kind === 'price' && buy(e.price, e.at)
          ? { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '10' }
          : undefined,
    }),
  } as StrategyDefinition);
}

async function verify(definition: StrategyDefinition, source: VerifySource = seriesSource(series)): Promise<VerifyReport> {
  return verifyStrategy({ definition, params: resolveParams(definition, {}, 'params'), source });
}

const check = (r: VerifyReport, name: string) => r.checks.find((c) => c.check === name)!;

describe('verify: look-ahead', () => {
  it('catches a plugin that reads the next price through a hole in the data source, naming the first differing decision and its time', async () => {
    // the fake source hands each run its view of the data, and leaves it where the plugin can read it
    const hole: { view?: PriceSeriesLike } = {};
    const source: VerifySource = { length: N, open: (end) => (hole.view = end === undefined ? series : headOf(series, end)) };
    const next = (at: number): number | undefined => {
      const v = hole.view!;
      const i = v.times.indexOf(at);
      return i >= 0 && i + 1 < v.length ? v.prices[i + 1] : undefined;
    };
    const r = await verify(
      buyer('peeks-ahead', (price, at) => (next(at) ?? 0) > price),
      source,
    );
    const c = check(r, 'look-ahead');
    expect(c.verdict).toBe('fail');
    expect(r.passed).toBe(false);
    // the first cut (40 of 160) whose last point the full run bought at, knowing the next price was higher
    const cut = [40, 80, 120].find((k) => series.prices[k]! > series.prices[k - 1]!)!;
    expect(c.summary).toContain(`cut after point ${cut} of ${N}`);
    expect(c.difference!.at).toBe(series.times[cut - 1]);
    expect(c.difference!.expected!.text).toBe('place-order BUY BTCUSD MARKET quoteAmount=10: approve');
    expect(c.difference!.got).toBeUndefined();
    expect(check(r, 'determinism').verdict).toBe('pass');
  });

  it('passes the same rule on the current price only', async () => {
    const r = await verify(buyer('looks-back', (price) => price > 100));
    expect(check(r, 'look-ahead')).toMatchObject({ verdict: 'pass' });
  });
});

describe('verify: warm-up', () => {
  it('catches a declared warm-up shorter than the window the plugin averages, and finds the smallest stable one', async () => {
    const window = 20;
    const definition = defineStrategy({
      name: 'short-warm-up',
      description: 'buys a tenth of the average of up to 20 prices',
      params: z.object({ window: z.number().int().min(2).max(100).default(window) }),
      markets: ['BTCUSD'],
      warmUp: () => 5,
      create: (p) => {
        const seen: number[] = [];
        return {
          onEvent: (e) => {
            if (e.kind !== 'price') return undefined;
            seen.push(e.price);
            if (seen.length > p.window) seen.shift();
            const avg = seen.reduce((a, b) => a + b, 0) / seen.length;
            return { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: (avg / 10).toFixed(2) };
          },
        };
      },
    });
    const r = await verify(definition as unknown as StrategyDefinition);
    const c = check(r, 'warm-up');
    expect(c.verdict).toBe('fail');
    // 19 points of history and the first price fill the window of 20: from there every decision is the same
    expect(c.warmUp).toEqual({ declared: 5, stable: 19, declaration: 'warmUp: () => 19' });
    expect(c.difference).toBeDefined();
    expect(c.runs).toEqual(['10 points of warm-up', '5 points of warm-up']);
    expect(r.passed).toBe(false);
  });
});

describe('verify: warm-up against all the history', () => {
  it('catches a memory that doubling misses (a spike long before the start), says so in a sentence, and finds the warm-up that reaches it', async () => {
    // a spike at point 3, then the sine series: a plugin that never forgets its highest price buys
    // only with a short memory, so 5 and 10 points of warm-up agree and all the history does not
    const spiked: PriceSeriesLike = { ...series, prices: Float64Array.from(series.prices, (p, i) => (i === 3 ? 500 : p)) };
    const definition = defineStrategy({
      name: 'never-forgets',
      description: 'buys while the price is above half the highest it has seen',
      params: z.object({}),
      markets: ['BTCUSD'],
      warmUp: () => 5,
      create: () => {
        let high = 0;
        return {
          onEvent: (e) => {
            if (e.kind !== 'price') return undefined;
            high = Math.max(high, e.price);
            return e.price > high / 2
              ? { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '10' }
              : undefined;
          },
        };
      },
    });
    const r = await verify(definition as unknown as StrategyDefinition, seriesSource(spiked));
    const c = check(r, 'warm-up');
    expect(c.verdict).toBe('fail');
    expect(c.runs).toEqual(['all 80 points before the start', '5 points of warm-up']);
    // the warm-up that reaches back to the spike at point 3 from the start at point 80
    expect(c.warmUp).toEqual({ declared: 5, stable: 77, declaration: 'warmUp: () => 77' });
    expect(c.summary).toBe(
      'the declared warmUp of 5 points is too short: the decisions from point 80 change with more history, and 77 points of warm-up give the same decisions as all 80 points before the start; declare warmUp: () => 77',
    );
  });

  it('names a plugin that declares nothing in words', async () => {
    const r = await verify(
      defineStrategy({
        name: 'declares-nothing',
        description: 'buys a tenth of the average of up to 20 prices',
        params: z.object({}),
        markets: ['BTCUSD'],
        create: () => {
          const seen: number[] = [];
          return {
            onEvent: (e) => {
              if (e.kind !== 'price') return undefined;
              seen.push(e.price);
              if (seen.length > 20) seen.shift();
              return {
                kind: 'place-order',
                market: 'BTCUSD',
                side: 'BUY',
                type: 'MARKET',
                quoteAmount: (seen.reduce((a, b) => a + b, 0) / seen.length / 10).toFixed(2),
              };
            },
          };
        },
      }) as unknown as StrategyDefinition,
    );
    const c = check(r, 'warm-up');
    expect(c.verdict).toBe('fail');
    expect(c.summary).toMatch(/^no warm-up at all \(the plugin declares no warmUp and has no period-like param\) is too short: /);
    expect(c.warmUp?.declaration).toBe('warmUp: () => 19');
  });
});

describe('verify: warm-up of a bar strategy, in bars', () => {
  it('reads the warm-up from the declared history, says it in bars, and proposes a longer history', async () => {
    // 1-minute prices; the plugin declares 2 hourly bars of history but averages the last 6 closes it kept itself
    const n = 1_200;
    const minutes: PriceSeriesLike = {
      source: 'minute prices',
      length: n,
      times: Float64Array.from({ length: n }, (_, i) => T0 + i * 60_000),
      prices: Float64Array.from({ length: n }, (_, i) => Number((100 + 10 * Math.sin(i / 97) + 3 * Math.sin(i / 23)).toFixed(4))),
    };
    const definition = defineStrategy({
      name: 'bar-memory',
      description: 'buys a tenth of the average of the last six hourly closes at each close',
      params: z.object({}),
      markets: ['BTCUSD'],
      bars: [{ market: 'BTCUSD', timeframe: '1h', history: 2 }],
      create: () => {
        const closes: number[] = [];
        return {
          onBar: (bar) => {
            closes.push(bar.close);
            if (closes.length > 6) closes.shift();
            const avg = closes.reduce((a, b) => a + b, 0) / closes.length;
            return { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: (avg / 10).toFixed(2) };
          },
        };
      },
    });
    const r = await verify(definition as unknown as StrategyDefinition, seriesSource(minutes));
    const c = check(r, 'warm-up');
    expect(c.verdict).toBe('fail');
    // 2 bars of history and the bar open now: 3 hours of minutes
    expect(c.warmUp?.declared).toBe(180);
    expect(c.runs?.[1]).toBe('180 points (3 1h bars) of warm-up');
    expect(c.summary).toMatch(/^the declared history of 2 bars for the 1h bars of BTCUSD is too short: /);
    const bars = Number(
      /^history: (\d+) on the 1h bars of BTCUSD \(bars: \[\{ market: 'BTCUSD', timeframe: '1h', history: \d+ \}\]\)$/.exec(
        c.warmUp?.declaration ?? '',
      )?.[1],
    );
    // six closes to average: at least five more bars before the start than the two declared
    expect(bars).toBeGreaterThanOrEqual(5);
    expect(bars).toBeLessThanOrEqual(8);
  });
});

describe('verify: determinism', () => {
  it('catches a module-level counter that carries over from one run to the next', async () => {
    let runs = 0;
    const definition = defineStrategy({
      name: 'counts-runs',
      description: 'test plugin',
      params: z.object({}),
      markets: ['BTCUSD'],
      create: () => {
        runs++;
        let i = 0;
        return {
          onEvent: (e) =>
            e.kind === 'price' && (i++ + runs) % 3 === 0
              ? { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '10' }
              : undefined,
        };
      },
    });
    const r = await verify(definition as unknown as StrategyDefinition);
    const c = check(r, 'determinism');
    expect(c.verdict).toBe('fail');
    expect(c.difference!.index).toBe(1);
    expect(c.runs).toEqual(['first run', 'second run']);
    // comparing runs says nothing more once two runs differ
    expect(check(r, 'look-ahead').verdict).toBe('skip');
    expect(check(r, 'warm-up').verdict).toBe('skip');
  });

  it('catches Math.random', async () => {
    // eslint-disable-next-line no-restricted-properties -- the nondeterminism verify must catch
    const r = await verify(buyer('coin-flip', () => Math.random() < 0.5));
    expect(check(r, 'determinism').verdict).toBe('fail');
  });

  it('catches the wall clock read through an injected clock hole', async () => {
    // a wall clock an hour on at each reading: the second run reads times past the first run's
    const wall = { at: T0, now: () => (wall.at += HOUR) };
    const r = await verify(buyer('reads-the-clock', () => wall.now() < T0 + 100 * HOUR));
    const c = check(r, 'determinism');
    expect(c.verdict).toBe('fail');
    expect(c.difference).toMatchObject({ index: 1, at: series.times[0] });
  });
});

describe('verify: schema and markets', () => {
  it('fails a default outside its own range and a market the platform does not trade', async () => {
    const definition = defineStrategy({
      name: 'bad-schema',
      description: 'test plugin',
      params: z.object({ period: z.number().int().min(5).max(50).default(2), market: z.string().default('BTC-USD') }),
      markets: (p) => [p.market as never],
      create: () => ({ onEvent: () => undefined }),
    });
    const r = await verify(definition as unknown as StrategyDefinition);
    expect(check(r, 'params')).toMatchObject({
      verdict: 'fail',
      problems: [expect.stringMatching(/^period: its default 2 fails its own schema/)],
    });
    expect(check(r, 'markets')).toMatchObject({
      verdict: 'fail',
      problems: [expect.stringMatching(/"BTC-USD" is not a market the platform trades/)],
    });
    expect(check(r, 'determinism').verdict).toBe('skip');
  });
});

describe('verify: declared bars', () => {
  it('fails a bar series on a market the plugin does not trade, and a bad timeframe from params', async () => {
    const definition = defineStrategy({
      name: 'bad-bars',
      description: 'test plugin',
      params: z.object({ tf: z.string().default('2h') }),
      markets: ['BTCUSD'],
      bars: (p) => [
        { market: 'ETHUSD', timeframe: '1h' },
        { market: 'BTCUSD', timeframe: p.tf },
      ],
      create: () => ({ onEvent: () => undefined }),
    });
    const r = await verify(definition as unknown as StrategyDefinition);
    expect(check(r, 'markets')).toMatchObject({
      verdict: 'fail',
      problems: [expect.stringMatching(/^bars\(params\): .*bars\[1\]\.timeframe/)],
    });
    const wrongMarket = defineStrategy({ ...definition, params: z.object({ tf: z.string().default('4h') }) });
    const r2 = await verify(wrongMarket as unknown as StrategyDefinition);
    expect(check(r2, 'markets')).toMatchObject({
      verdict: 'fail',
      problems: [expect.stringMatching(/^bars\[0\]: ETHUSD 1h is on a market the strategy does not declare \(BTCUSD\)/)],
    });
  });

  it('names the declared series of a bar strategy that passes', async () => {
    const r = await verify(await loadStrategy('donchian-breakout'));
    expect(check(r, 'markets')).toMatchObject({ verdict: 'pass', summary: expect.stringMatching(/; bars BTCUSD 1h, BTCUSD 4h$/) });
  });
});

describe('verify: a clean built-in', () => {
  it('sma-cross passes every check', async () => {
    const r = await verify(await loadStrategy('sma-cross'));
    expect(r.checks.map((c) => [c.check, c.verdict])).toEqual([
      ['params', 'pass'],
      ['markets', 'pass'],
      ['determinism', 'pass'],
      ['look-ahead', 'pass'],
      ['warm-up', 'pass'],
    ]);
    expect(r.passed).toBe(true);
  });
});

describe('tradeloop verify', () => {
  it('prints one JSON line and exits 0 for a clean built-in', async () => {
    const r = await runCli(['verify', '--strategy', 'sma-cross', '--data', csv, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ strategy: 'sma-cross', market: 'BTCUSD', points: N, passed: true });
    expect(j.checks.map((c: { check: string }) => c.check)).toEqual(['params', 'markets', 'determinism', 'look-ahead', 'warm-up']);
  });

  it('exits 1 on a failed check and prints the verdict per check with the first differing decision', { timeout: 60_000 }, async () => {
    const plugin = join(dir, 'counts-runs.ts');
    writeFileSync(
      plugin,
      `import { z } from ${JSON.stringify(join(ROOT, 'node_modules/zod/index.js'))};
import { defineStrategy } from ${JSON.stringify(join(ROOT, 'src/strategy/index.ts'))};
let runs = 0;
export default defineStrategy({
  name: 'counts-runs', description: 'buys on a count that goes on from run to run', params: z.object({}), markets: ['BTCUSD'],
  create: () => { runs++; let i = 0; return { onEvent: (e) => (e.kind === 'price' && (i++ + runs) % 3 === 0 ? { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '10' } : undefined) }; },
});
`,
    );
    const r = await runCli(['verify', '--strategy', plugin, '--data', csv]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL {2}determinism {2}the second run decided differently/m);
    expect(r.stdout).toMatch(/first differing decision: #1 at 2024-01-01T0\d:00:00.000Z/);
    expect(r.stdout).toMatch(/^SKIP {2}look-ahead/m);
    expect(r.stdout).toMatch(/^verdict: failed \(determinism\)$/m);
    const j = await runCli(['verify', '--strategy', plugin, '--data', csv, '--json']);
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout).checks[2]).toMatchObject({
      check: 'determinism',
      verdict: 'fail',
      first_difference: { index: 1, runs: ['first run', 'second run'] },
    });
  });

  it('exits 2 on bad input, naming the flag', async () => {
    const none = await runCli(['verify', '--strategy', 'sma-cross']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--data/);
    const bad = await runCli(['verify', '--strategy', 'sma-cross', '--data', csv, '--params', 'fast=x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/fast/);
  });
});
