/**
 * `tradeloop backtest --config FILE` in-process: a config's three strategies on two markets on one
 * account (JSON per strategy, per market and in total, the manifest's limits with their origin, the
 * CSV files); data errors named with the flag to add; the trap warning naming the config key.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'tradeloop-portfolio-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2024, 0, 1);
const H = 3_600_000;
function priceFile(name: string, prices: number[], step = H): string {
  const file = join(dir, name);
  writeFileSync(file, `timestamp,price\n${prices.map((p, i) => `${T0 + i * step},${p}`).join('\n')}\n`);
  return file;
}
const wave = (base: number, n: number) => Array.from({ length: n }, (_, i) => base * (1 + 0.2 * Math.sin(i / 5)));
const btc = priceFile('btc.csv', wave(20_000, 120));
const eth = priceFile('eth.csv', wave(1_000, 60), 2 * H);

const config = join(dir, 'bot.yaml');
writeFileSync(
  config,
  `environment: local
strategies:
  - plugin: sma-cross
    name: btc-fast
    params: { market: BTCUSD, fast: 2, slow: 5, size_pct: 40 }
  - plugin: sma-cross
    name: eth-fast
    params: { market: ETHUSD, fast: 2, slow: 5, size_pct: 40 }
  - plugin: sma-cross
    name: btc-slow
    params: { market: BTCUSD, fast: 3, slow: 8, size_pct: 40 }
    allocation: "3000"
risk:
  max_order_notional: "20000"
`,
);

describe('tradeloop backtest --config', () => {
  it('backtests every strategy of the config on its market on one account, per strategy, per market and in total', async () => {
    const out = join(dir, 'out');
    const r = await runCli(['backtest', '--config', config, '--data', `BTCUSD=${btc}`, '--data', `ETHUSD=${eth}`, '--json', '--out', out]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout.trim());
    // btc-slow's allocation of 3000 USD denies its buy of 40 % of the account: said first, naming the key
    expect(j.warnings).toEqual([
      expect.stringMatching(/^limit ALLOCATION denied 1 of \d+ intents of strategy btc-slow .*strategies\[\]\.allocation/),
    ]);
    expect(r.stderr).toBe(`warning: ${j.warnings[0]}\n`);
    expect(j.strategies.map((s: { name: string }) => s.name)).toEqual(['btc-fast', 'eth-fast', 'btc-slow']);
    expect(j.markets.map((m: { market: string; points: number }) => [m.market, m.points])).toEqual([
      ['BTCUSD', 120],
      ['ETHUSD', 60],
    ]);
    expect(j.total.points).toBe(180);
    for (const s of j.strategies) expect(s.round_trips).toBeGreaterThan(0);
    // the total P&L is the strategies' own P&L together (one account, each strategy its own position)
    const pnl = j.strategies.reduce((sum: number, s: { pnl: number }) => sum + s.pnl, 0);
    expect(j.total.final_equity - j.total.initial_equity).toBeCloseTo(pnl, 0);
    expect(j.correlation.strategies).toEqual(['btc-fast', 'eth-fast', 'btc-slow']);
    const rules = Object.fromEntries(j.manifest.risk_rules.map((x: { key: string; from: string; value: string }) => [x.key, x]));
    expect(rules['risk.max_order_notional']).toMatchObject({ value: '20000', from: 'file' });
    expect(rules['risk.max_open_orders']).toMatchObject({ value: '50', from: 'default' });
    // the markets' points of one time are one step: the spacing is BTCUSD's hour, not 0 (as merged)
    expect(j.manifest.data.median_spacing_ms).toBe(H);
    expect(j.manifest.data.points).toBe(180);
    for (const f of ['strategies.csv', 'markets.csv', 'equity.csv', 'correlation.csv']) expect(existsSync(join(out, f))).toBe(true);
    expect(readFileSync(join(out, 'strategies.csv'), 'utf8').split('\n')[1]).toMatch(/^btc-fast,sma-cross,BTCUSD,/);
  });

  it('narrows to one strategy of the config with --strategy NAME, and prints a summary table', async () => {
    const r = await runCli(['backtest', '--config', config, '--strategy', 'eth-fast', '--data', `ETHUSD=${eth}`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/portfolio of 1 strategy on 1 market/);
    expect(r.stdout).toMatch(/eth-fast\s+ETHUSD/);
    expect(r.stdout).toMatch(/max order notional 20000 \(risk\.max_order_notional\)/);
    // money at the quote asset's precision in the tables (the JSON keeps every digit)
    expect(r.stdout).toMatch(/\nFees\s+\d+\.\d\d\n/);
    expect(r.stdout).toMatch(/eth-fast\s+ETHUSD\s+-?\d+\.\d\d\s+-?\d+\.\d\d\s+-?\d+\.\d\d\s+\d+\.\d\d\s/);
  });

  it('refuses a config market without data, data of no config market and a duplicate timestamp, naming the flag', async () => {
    const dup = join(dir, 'dup.csv');
    writeFileSync(dup, `timestamp,price\n${T0},10\n${T0},11\n`);
    const xrp = priceFile('xrp.csv', [1, 2, 3]);
    const cases: Array<[string[], RegExp]> = [
      [['--data', `BTCUSD=${btc}`], /--data: no data for ETHUSD, which the config's strategies trade: add --data ETHUSD=FILE/],
      [
        ['--data', `BTCUSD=${btc}`, '--data', `ETHUSD=${eth}`, '--data', `XRPUSD=${xrp}`],
        /XRPUSD=.*no strategy of the config trades XRPUSD/,
      ],
      [['--data', `BTCUSD=${dup}`, '--data', `ETHUSD=${eth}`], /line 3: duplicate timestamp/],
      [['--data', btc], /--data: .*name the market of each file, e.g. --data BTCUSD=/],
      [[], /--data: give the prices of each market the config trades: --data BTCUSD=FILE --data ETHUSD=FILE/],
      [['--data', `BTCUSD=${btc}`, '--data', `ETHUSD=${eth}`, '--params', 'fast=3'], /--params: applies to a backtest of one strategy/],
    ];
    for (const [argv, message] of cases) {
      const r = await runCli(['backtest', '--config', config, ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it("says at the top when a limit denies much of a strategy's intents, naming the key to change", async () => {
    const small = join(dir, 'small.yaml');
    writeFileSync(small, 'environment: local\nrisk:\n  max_order_notional: "500"\n  fee_bps: 25\n');
    // the old single-strategy form, with the config's limits: every buy of 40 % of 10000 USD is over 500
    const r = await runCli([
      'backtest',
      '--config',
      small,
      '--strategy',
      'sma-cross',
      '--data',
      btc,
      '--params',
      'fast=2,slow=5,size_pct=40',
    ]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toMatch(
      /^warning: limit MAX_NOTIONAL denied \d+ of \d+ intents of strategy sma-cross \(100 %\): change risk\.max_order_notional in the config/,
    );
    const j = JSON.parse(
      (
        await runCli([
          'backtest',
          '--config',
          small,
          '--strategy',
          'sma-cross',
          '--data',
          btc,
          '--params',
          'fast=2,slow=5,size_pct=40',
          '--json',
        ])
      ).stdout,
    );
    expect(j.warnings[0]).toMatch(/risk\.max_order_notional/);
    // the config's fee is the backtest's fee unless --fee-bps says otherwise
    expect(j.manifest.fee_bps).toBe(25);
  });
});
