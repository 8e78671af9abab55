/**
 * The three cases that showed a backtest accepting what a live run does not, end to end through the
 * real `tradeloop` process as a user runs it, with plugin files in a temp folder:
 * (a) a BTCUSD limit buy at 59999.877 is denied PRECISION by `tradeloop backtest` and by `tradeloop run`
 *     on the embedded sandbox, and fills nowhere;
 * (b) with `risk.max_open_orders: 2`, one resting buy per price gets 2 accepted and the rest denied
 *     MAX_OPEN_ORDERS in a backtest, and live the sandbox never receives a third order;
 * (c) a daily-loss trip in a backtest cancels the resting orders (not only stops new intents).
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sandboxOrders, startSandboxProcess, tempDir, tradeloop, writeLocalConfig, type Proc } from '../support/reliability-procs.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = tempDir('kernel-cases');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

/** `tradeloop <args>` in the temp folder, killed after the test if still running. */
function start(args: readonly string[]): Proc {
  const p = tradeloop(args, dir);
  children.push(p.child);
  return p;
}

/** Runs `tradeloop <args>` to its end; fails the test (with stderr) unless it exits 0. */
async function run(args: readonly string[]): Promise<Proc> {
  const p = start(args);
  expect(await p.exit, p.err().slice(-2_000)).toBe(0);
  return p;
}

function lastJson<T = Record<string, unknown>>(p: Proc): T {
  return JSON.parse(p.out().trim().split('\n').at(-1) ?? '{}') as T;
}

// a user's project folder: ESM, as the plugins' imports are
writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');

/** Writes a plugin whose `create` body is `body`, importing zod, roundPrice and defineStrategy from this checkout. */
function plugin(name: string, description: string, body: string): string {
  const file = join(dir, `${name}.ts`);
  writeFileSync(
    file,
    `import { z } from ${JSON.stringify(join(ROOT, 'node_modules/zod/index.js'))};
import { roundPrice } from ${JSON.stringify(join(ROOT, 'src/core/index.ts'))};
import { defineStrategy } from ${JSON.stringify(join(ROOT, 'src/strategy/index.ts'))};

export default defineStrategy({
  name: ${JSON.stringify(name)},
  description: ${JSON.stringify(description)},
  params: z.object({}),
  markets: ['BTCUSD'],
  create: () => {
${body}
  },
});
`,
  );
  return file;
}

/** Hourly BTCUSD points from 2024-01-01 as a CSV file. */
function csv(name: string, prices: readonly number[]): string {
  const file = join(dir, name);
  writeFileSync(file, `timestamp,price\n${prices.map((p, i) => `${Date.UTC(2024, 0, 1) + i * 3_600_000},${p}`).join('\n')}\n`);
  return file;
}

function riskConfig(name: string, risk: string): string {
  const file = join(dir, name);
  writeFileSync(file, `risk: ${risk}\n`);
  return file;
}

const offTick = plugin(
  'off-tick-buy',
  'one BTCUSD limit buy at 59999.877 on the first live price',
  `    let sent = false;
    return {
      onEvent(e, ctx) {
        if (e.kind !== 'price' || ctx.warmingUp || sent) return undefined;
        sent = true;
        return { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.001', price: '59999.877', timeInForce: 'GTC' };
      },
    };`,
);

const restEach = plugin(
  'rest-each-price',
  'one resting BTCUSD limit buy 5 % under each live price',
  `    return {
      onEvent(e, ctx) {
        if (e.kind !== 'price' || ctx.warmingUp) return undefined;
        const price = roundPrice(ctx.instrument('BTCUSD'), e.price * 0.95, 'down');
        return { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.001', price, timeInForce: 'GTC' };
      },
    };`,
);

// says on stderr what it sees and hears, so the test reads the cancels the strategy was told of
const restAndHold = plugin(
  'rest-and-hold',
  'buys 5000 USD of BTC, keeps two resting buys at half the price',
  `    let n = 0;
    return {
      onEvent(e, ctx) {
        if (e.kind !== 'price' || ctx.warmingUp) return undefined;
        const resting = ctx.account.openOrders('BTCUSD').filter((o) => o.type === 'LIMIT').length;
        process.stderr.write('point ' + ++n + ': ' + resting + ' resting\\n');
        const out = [];
        if (n === 1) out.push({ kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '5000.00' });
        if (resting < 2) out.push({ kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '0.001', price: roundPrice(ctx.instrument('BTCUSD'), e.price / 2, 'down'), timeInForce: 'GTC' });
        return out;
      },
      onReport(r) {
        process.stderr.write('report ' + r.kind + ' ' + r.refId + (r.kind === 'denied' ? ' ' + r.reason.code : '') + '\\n');
      },
    };`,
);

interface BacktestJson {
  readonly trades: number;
  readonly fees: number;
  readonly final_equity: number;
  readonly decisions: Record<string, number>;
  readonly denials: Record<string, { count: number; first: { message: string; details: Record<string, unknown> } }>;
}

interface RunSummary {
  readonly intents: number;
  readonly approved: number;
  readonly denials: Record<string, number>;
  readonly ordersPlaced: number;
  readonly fills: number;
}

describe('one kernel, through the real CLI', () => {
  it(
    '(a) denies a BTCUSD limit buy at 59999.877 PRECISION in a backtest and in a live run on the embedded sandbox; nothing fills',
    { timeout: 240_000 },
    async () => {
      // the price falls through the buy's price: accepted, it would have filled
      const bt = lastJson<BacktestJson>(
        await run(['backtest', '--strategy', offTick, '--data', csv('fall.csv', [60_000, 60_000, 59_000, 59_000]), '--json']),
      );
      expect(bt.decisions).toEqual({ PRECISION: 1 });
      expect(bt.denials.PRECISION).toMatchObject({
        count: 1,
        first: {
          message: expect.stringMatching(/price: 59999\.877 .*at most 2 decimal places/),
          details: { field: 'price', value: '59999.877' },
        },
      });
      expect([bt.trades, bt.fees, bt.final_equity]).toEqual([0, 0, 10_000]);

      const journal = join(dir, 'off-tick.sqlite');
      const config = join(dir, 'off-tick.yaml');
      writeFileSync(
        config,
        [
          'environment: local',
          'local: { port: 0, seed: 42, speed: 1, funding: { USD: "100000" } }',
          `strategies: [{ plugin: ${offTick} }]`,
          'streams: { prices_ms: 500, balances_ms: 1000, orders_ms: 1000, warmup_points: 2 }',
          `journal: { path: ${journal} }`,
        ].join('\n'),
      );
      const live = lastJson<RunSummary>(await run(['run', '--config', config, '--duration', '4s', '--json']));
      expect(live).toMatchObject({ intents: 1, approved: 0, denials: { PRECISION: 1 }, ordersPlaced: 0, fills: 0 });
      const rows = JSON.parse((await run(['orders', '--journal', journal, '--json'])).out()) as Array<Record<string, unknown>>;
      expect(rows).toEqual([
        expect.objectContaining({ kind: 'place-order', side: 'BUY', state: 'denied', denialCode: 'PRECISION', venueId: null }),
      ]);
    },
  );

  it(
    '(b) with max_open_orders 2 accepts 2 resting buys and denies the rest MAX_OPEN_ORDERS, in a backtest and live (the sandbox never gets a third)',
    { timeout: 240_000 },
    async () => {
      const limits = riskConfig('two-open.yaml', '{ max_open_orders: 2, price_band_bps: 1000 }');
      const bt = lastJson<BacktestJson>(
        await run([
          'backtest',
          '--strategy',
          restEach,
          '--data',
          csv('flat.csv', [60_000, 60_000, 60_000, 60_000, 60_000]),
          '--config',
          limits,
          '--json',
        ]),
      );
      expect(bt.decisions).toEqual({ approve: 2, MAX_OPEN_ORDERS: 3 });
      expect(bt.denials.MAX_OPEN_ORDERS?.first.details).toEqual({ open: 2, max_open_orders: 2 });

      const sandbox = await startSandboxProcess(dir, 9);
      children.push(sandbox.proc.child);
      // prices four times a second, open orders polled every 2 s: most intents come before a poll lists the last order
      const config = writeLocalConfig(join(dir, 'two-open-live.yaml'), sandbox.url, [
        `strategies: [{ plugin: ${restEach} }]`,
        'streams: { prices_ms: 250, balances_ms: 2000, orders_ms: 2000, warmup_points: 2 }',
        'risk: { max_open_orders: 2, price_band_bps: 1000, max_intents_per_minute: 6000, stale_after_ms: 15000 }',
        `journal: { path: ${join(dir, 'two-open.sqlite')} }`,
        'run: { cancel_on_exit: false, ref_prefix: two }',
      ]);
      const live = lastJson<RunSummary>(await run(['run', '--config', config, '--duration', '5s', '--json']));
      expect(live.approved).toBe(2);
      expect(live.ordersPlaced).toBe(2);
      expect(live.denials.MAX_OPEN_ORDERS).toBe(live.intents - 2);
      expect(live.intents).toBeGreaterThan(4);
      const orders = (await sandboxOrders<{ ref_id: string; status: string }>(sandbox.url)).filter((o) => o.ref_id.startsWith('two-'));
      expect(orders.map((o) => o.status)).toEqual(['OPEN', 'OPEN']);
      sandbox.proc.child.kill('SIGTERM');
      expect(await sandbox.proc.exit).toBe(0);
    },
  );

  it('(c) a daily-loss trip in a backtest cancels the resting buys, then denies new buys HALTED', { timeout: 60_000 }, async () => {
    const limits = riskConfig('loss.yaml', '{ daily_loss_limit: "1000", price_band_bps: 6000 }');
    // 5000 USD of BTC bought at 60000 (filled at the 2nd point), then BTC falls to 45000 at the 4th: 1253.75 lost
    const p = await run([
      'backtest',
      '--strategy',
      restAndHold,
      '--data',
      csv('drop.csv', [60_000, 60_000, 60_000, 45_000, 45_000, 45_000]),
      '--config',
      limits,
      '--json',
    ]);
    const bt = lastJson<BacktestJson>(p);
    expect(bt.decisions).toEqual({ approve: 3, HALTED: 2 });
    expect(bt.denials.HALTED).toMatchObject({
      count: 2,
      first: { message: expect.stringMatching(/trading is halted: daily loss 1253\.75 exceeds 1000/) },
    });
    expect(bt.final_equity).toBe(8746.25);
    const heard = p
      .err()
      .split('\n')
      .filter((l) => /^(point|report) /.test(l));
    // the two cancels go out together: which answers first is not the point
    expect(heard.filter((l) => l.startsWith('report cancelled')).sort()).toEqual(['report cancelled bt-2', 'report cancelled bt-3']);
    expect(heard.map((l) => (l.startsWith('report cancelled') ? 'report cancelled' : l))).toEqual([
      'point 1: 0 resting',
      'report accepted bt-1',
      'report accepted bt-2',
      'report filled bt-1',
      'point 2: 1 resting',
      'report accepted bt-3',
      'point 3: 2 resting',
      'point 4: 2 resting',
      // the trip, marked after the 4th point, cancels both resting buys before the 5th
      'report cancelled',
      'report cancelled',
      'point 5: 0 resting',
      'report denied bt-4 HALTED',
      'point 6: 0 resting',
      'report denied bt-5 HALTED',
    ]);
  });
});
