/**
 * Issue 21 item 3 through the real command: `tradeloop run` stopped and started again on the same
 * journal reports the equity the run started with (kept in the journal), not the equity at the
 * restart, and its summary lists the positions still held, money at its asset's precision.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shownDecimals } from '../../src/core/index.js';
import { tempDir, useTradeloop } from '../support/reliability-procs.js';

const start = useTradeloop();
const cwd = tempDir('restart-summary');
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

interface Summary {
  readonly startEquity?: string;
  readonly startEquityAt?: number;
  readonly endEquity?: string;
  readonly pnl?: string;
  readonly positions?: ReadonlyArray<{ asset: string; amount: string; value?: string }>;
}

describe('tradeloop run restarted on its journal', () => {
  it('keeps the start equity of its first start, and lists the positions held', { timeout: 120_000 }, async () => {
    // quote-dca buys 250 USD of BTC every 2 s: the first run ends holding BTC, bought at the spread
    const config = join(cwd, 'c.yaml');
    writeFileSync(
      config,
      [
        'environment: local',
        'local: { seed: 42 }',
        'strategies:',
        '  - plugin: quote-dca',
        '    params: { market: BTCUSD, quote_amount: "250.00", interval_ms: 2000 }',
        'streams: { warmup_points: 10 }',
        '',
      ].join('\n'),
    );
    const run = async (args: string[]): Promise<string> => {
      const p = start(['run', '--config', config, ...args], cwd);
      expect(await p.exit, p.err().slice(-2000)).toBe(0);
      return p.out();
    };
    const first = JSON.parse((await run(['--duration', '10s', '--json'])).trim().split('\n').at(-1)!) as Summary;
    expect(first.startEquity).toBe('100000'); // the funding, measured before the first buy
    expect(first.positions?.find((p) => p.asset === 'BTC')).toBeDefined();

    const second = JSON.parse((await run(['--duration', '3s', '--json'])).trim().split('\n').at(-1)!) as Summary;
    expect(second.startEquity).toBe(first.startEquity);
    expect(second.startEquityAt).toBe(first.startEquityAt);
    expect(Number(second.pnl)).toBeCloseTo(Number(second.endEquity) - 100_000, 6);
    expect(Number(second.endEquity)).not.toBe(100_000); // the restart's own equity differs: the buys paid the spread

    const text = await run(['--duration', '3s']);
    const summary = text.slice(text.lastIndexOf('run summary'));
    expect(summary).toMatch(/equity\s+100000\.00 → \d+\.\d{2} USD \(start measured /);
    expect(summary).toMatch(/position held\s+\d+\.\d{8} BTC at \d+\.\d{2} = \d+\.\d{2} USD/);
    for (const [, amount] of summary.matchAll(/(-?\d+\.\d+) USD/g)) expect(shownDecimals(amount!)).toBe(2);
  });
});
