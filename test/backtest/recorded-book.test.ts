/**
 * `tradeloop backtest --data RECORDING --fill-model book` end to end (the real CLI, a user's plugin,
 * a hand-built recording; fills computed by hand): a market buy walks three ask levels, a resting
 * limit sell fills at its price when later bids cross it (in part, then the rest), the result and
 * the manifest say so; flags that do not apply to a model are refused naming the fix.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runRecordedBookBacktest } from '../../backtest/book-run.js';
import { z } from 'zod';
import { defineStrategy, loadStrategy, resolveParams } from '../../src/strategy/index.js';
import { runCli } from '../cli/cli-helpers.js';
import { stopAndSave } from '../support/stop-and-save.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'tradeloop-recorded-book-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');

const T = Date.UTC(2024, 0, 1);
const HEADER = JSON.stringify({ format: 'tradeloop-stream-recording', version: 1 });
const lv = (pairs: [number, number][]) => pairs.map(([p, a]) => ({ price: String(p), amount: String(a) }));
const book = (i: number, bids: [number, number][], asks: [number, number][]) => ({
  at: T + i * 1000,
  stream: 'book:BTCUSD',
  body: { market: 'BTCUSD', bids: lv(bids), asks: lv(asks) },
});

const recording = join(dir, 'books.jsonl');
writeFileSync(
  recording,
  `${[
    HEADER,
    ...[
      book(
        0,
        [[99, 1]],
        [
          [100, 1],
          [101, 2],
          [102, 3],
        ],
      ),
      book(1, [[104, 1]], [[106, 1]]),
      book(2, [[109, 10]], [[111, 1]]),
      book(
        3,
        [
          [111, 2],
          [110, 1],
          [109, 5],
        ],
        [[112, 1]],
      ),
      book(4, [[112, 5]], [[113, 1]]),
    ].map((l) => JSON.stringify(l)),
  ].join('\n')}\n`,
);

/** Buys 353 USD at market on the first book, then offers all it bought at 110 on the second. */
const plugin = join(dir, 'walker.ts');
writeFileSync(
  plugin,
  `import { z } from ${JSON.stringify(join(ROOT, 'node_modules/zod/index.js'))};
import { defineStrategy } from ${JSON.stringify(join(ROOT, 'src/strategy/index.ts'))};
export default defineStrategy({
  name: 'walker',
  description: 'walks the book, then rests a limit',
  params: z.object({}),
  markets: ['BTCUSD'],
  needs: ['book'],
  create: () => {
    let n = 0;
    return {
      onEvent(e) {
        if (e.kind !== 'book') return undefined;
        n++;
        if (n === 1) return { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '353' };
        if (n === 2) return { kind: 'place-order', market: 'BTCUSD', side: 'SELL', type: 'LIMIT', baseAmount: '3.5', price: '110' };
        return undefined;
      },
    };
  },
});
`,
);

/** Executes the first recorded buy quote for 1001 USD. */
const quoter = join(dir, 'quoter.ts');
writeFileSync(
  quoter,
  `import { z } from ${JSON.stringify(join(ROOT, 'node_modules/zod/index.js'))};
import { defineStrategy } from ${JSON.stringify(join(ROOT, 'src/strategy/index.ts'))};
export default defineStrategy({
  name: 'quoter',
  description: 'takes the first buy quote',
  params: z.object({}),
  markets: ['BTCUSD'],
  needs: ['book', 'quote'],
  create: () => {
    let done = false;
    return {
      onEvent(e) {
        if (e.kind !== 'quote' || e.side !== 'BUY' || done) return undefined;
        done = true;
        return { kind: 'execute-quote', market: 'BTCUSD', side: 'BUY', quoteAmount: '1001' };
      },
    };
  },
});
`,
);
const quotes = (i: number, buy: string, sell: string) => ({
  at: T + i * 1000,
  stream: 'quotes:BTCUSD',
  body: {
    items: [
      { id: `b${i}`, market: 'BTCUSD', side: 'BUY', price: buy, expires_at: new Date(T + i * 1000 + 30_000).toISOString() },
      { id: `s${i}`, market: 'BTCUSD', side: 'SELL', price: sell, expires_at: new Date(T + i * 1000 + 30_000).toISOString() },
    ],
  },
});
const quoted = join(dir, 'quotes.jsonl');
writeFileSync(
  quoted,
  `${[HEADER, ...[book(0, [[99, 1]], [[101, 1]]), quotes(0, '100.10', '99.90'), book(1, [[99, 1]], [[101, 1]])].map((l) => JSON.stringify(l))].join('\n')}\n`,
);

describe('backtest --fill-model book', () => {
  it('fills by hand-computed prices: three levels walked, a resting limit filled in part then in full', { timeout: 60_000 }, async () => {
    const definition = await loadStrategy(plugin);
    const run = await runRecordedBookBacktest({ definition, params: {}, path: recording, feeBps: 0 });
    // buy: 1 @ 100, 2 @ 101, 0.5 @ 102 (353 USD); sell at 110: 2 and 1 when bids 111 × 2 and 110 × 1 cross
    // (one fill per level, at the order's price), then the last 0.5 on the next book
    expect(run.fills.map((f) => [f.side, f.price, f.at - T])).toEqual([
      ['buy', 100, 0],
      ['buy', 101, 0],
      ['buy', 102, 0],
      ['sell', 110, 3000],
      ['sell', 110, 3000],
      ['sell', 110, 4000],
    ]);
    expect(run.trades).toHaveLength(1);
    expect(run.trades[0]).toMatchObject({ quantity: '3.5', pnl: '32', exitPrice: '110' });
    expect(run.finalBalances).toMatchObject({ USD: '10032', BTC: '0' });
    // fills are reported through the fill tracker, one report per fill; the partial market buy is not cancelled
    expect(run.orders).toMatchObject({ accepted: 2, fills: 6, cancelled: 0, openAtEnd: 0 });
    expect([...run.times]).toEqual([0, 1, 2, 3, 4].map((i) => T + i * 1000));
    expect(run.equity[run.equity.length - 1]).toBe(10032);

    const cli = await runCli(['backtest', '--strategy', plugin, '--data', recording, '--fee-bps', '0', '--json']);
    expect(cli.code).toBe(0);
    const out = JSON.parse(cli.stdout);
    expect(out).toMatchObject({ trades: 1, final_equity: 10032 });
    expect(out.manifest).toMatchObject({
      fill_model: 'book',
      latency_ms: 0,
      slippage_bps: null,
      slippage: expect.stringMatching(/walking the book is the slippage/),
    });
    expect(out.manifest.fill_rule).toMatch(
      /holds no trades \(record with streams\.trades_ms\), so resting limits filled only when the opposite side crossed them/,
    );
    expect(out.manifest.data.source).toContain('recorded BTCUSD books');
    // the same recording on the point model: no walk, the buy fills at the next point's mid
    const points = JSON.parse(
      (await runCli(['backtest', '--strategy', plugin, '--data', recording, '--fee-bps', '0', '--fill-model', 'points', '--json'])).stdout,
    );
    expect(points.manifest.fill_model).toBe('points');
    const text = await runCli(['backtest', '--strategy', plugin, '--data', recording, '--fee-bps', '0', '--latency-ms', '250']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/250 ms from decision to venue/);
  });

  it('with --latency-ms the market buy meets the book in force when it arrives', { timeout: 60_000 }, async () => {
    const definition = await loadStrategy(plugin);
    // decided at the first book, arrives 1,500 ms later: the book of second 1 (asks 106 × 1) fills 1 BTC, the rest is cancelled
    const run = await runRecordedBookBacktest({ definition, params: {}, path: recording, feeBps: 0, latencyMs: 1500 });
    expect(run.fills.filter((f) => f.side === 'buy')).toEqual([{ at: T + 1500, side: 'buy', price: 106 }]);
    expect(run.finalBalances.USD).not.toBe('10032');
  });

  it("an execute-quote intent settles at the recorded quote's price", { timeout: 60_000 }, async () => {
    const definition = await loadStrategy(quoter);
    const run = await runRecordedBookBacktest({ definition, params: {}, path: quoted, feeBps: 0 });
    expect(run.decisions).toMatchObject({ approve: 1 });
    // 1001 / 100.10 = 10 BTC, no fee
    expect(run.fills).toEqual([{ at: T, side: 'buy', price: 100.1 }]);
    expect(run.finalBalances).toMatchObject({ USD: '8999', BTC: '10' });
  });

  it('warms the strategy on the recorded warm-up history, so it can decide at the first recorded book', { timeout: 60_000 }, async () => {
    const history = {
      at: T - 1,
      stream: 'history:BTCUSD',
      body: { items: [3, 2, 1].map((k) => ({ average_price: '10', timestamp: new Date(T - k * 60_000).toISOString() })) },
    };
    const books = [book(0, [[11.99, 5]], [[12.01, 5]]), book(1, [[12.99, 5]], [[13.01, 5]]), book(2, [[13.99, 5]], [[14.01, 5]])];
    const warm = join(dir, 'warm.jsonl');
    writeFileSync(warm, `${[HEADER, history, ...books].map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
    const cold = join(dir, 'cold.jsonl');
    writeFileSync(cold, `${[HEADER, ...books].map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
    const definition = await loadStrategy('sma-cross');
    const params = resolveParams(definition, { fast: 2, slow: 3 }, 'params');
    // warm: SMAs at 10 from history, the first mid 12 crosses fast (11) above slow (10.67): a buy at the first book
    const warmRun = await runRecordedBookBacktest({ definition, params, path: warm, feeBps: 0 });
    expect(warmRun.warmUpEvents).toBe(3);
    expect(warmRun.intents.map((i) => [i.at - T, i.side])).toEqual([[0, 'BUY']]);
    // cold: three books are only enough to fill the slow SMA; no decision
    const coldRun = await runRecordedBookBacktest({ definition, params, path: cold, feeBps: 0 });
    expect(coldRun.intents).toEqual([]);
    const cli = JSON.parse(
      (await runCli(['backtest', '--strategy', 'sma-cross', '--params', 'fast=2,slow=3', '--data', warm, '--json'])).stdout,
    );
    expect(cli.manifest.warm_up.note).toMatch(/warm-up history, as it was live: 3 prices from its history: lines/);
  });

  it('refuses flags that do not apply to the model, naming the fix', async () => {
    const csv = join(dir, 'p.csv');
    writeFileSync(csv, 'timestamp,price\n1704067200000,100\n1704070800000,101\n');
    const asBook = await runCli(['backtest', '--strategy', 'sma-cross', '--data', csv, '--fill-model', 'book']);
    expect(asBook.code).toBe(2);
    expect(asBook.stderr).toMatch(/--fill-model.*stream recording/s);
    const latency = await runCli(['backtest', '--strategy', plugin, '--data', recording, '--fill-model', 'points', '--latency-ms', '5']);
    expect(latency.code).toBe(2);
    expect(latency.stderr).toMatch(/--latency-ms.*--fill-model book/s);
    const bad = await runCli(['backtest', '--strategy', plugin, '--data', recording, '--fill-model', 'magic']);
    expect(bad.stderr).toMatch(/"magic" is not a fill model/);
    const slip = await runCli(['backtest', '--strategy', plugin, '--data', recording, '--slippage-bps', '5']);
    expect(slip.stderr).toMatch(/--slippage-bps.*the book is the slippage/s);
    // a recording without books: points by default; book asked for is refused naming the fix
    const pricesOnly = join(dir, 'prices-only.jsonl');
    writeFileSync(
      pricesOnly,
      `${HEADER}\n${JSON.stringify({ at: T, stream: 'prices', body: { items: [{ market: 'BTCUSD', current_price: '100', snapshot_at: new Date(T).toISOString() }] } })}\n`,
    );
    const noBooks = await runCli(['backtest', '--strategy', 'sma-cross', '--data', pricesOnly, '--fill-model', 'book']);
    expect(noBooks.code).toBe(2);
    expect(noBooks.stderr).toMatch(/holds no order books of BTCUSD.*--fill-model points/s);
    // a damaged book is named by its line, with every other problem, before anything runs
    const damaged = join(dir, 'damaged.jsonl');
    writeFileSync(
      damaged,
      `${[HEADER, JSON.stringify(book(0, [[99, 1]], [[100, 1]])), JSON.stringify({ at: T + 1000, stream: 'book:BTCUSD', body: 'garbage' }), JSON.stringify(book(-1, [[99, 1]], [[100, 1]]))].join('\n')}\n`,
    );
    const bad2 = await runCli(['backtest', '--strategy', plugin, '--data', damaged]);
    expect(bad2.code).toBe(2);
    expect(bad2.stderr).toMatch(/line 3: the book response does not decode/);
    expect(bad2.stderr).toMatch(/line 4: time .* is earlier than the response before it/);
  });

  it(
    'a resting limit fills on recorded trades at or through its price, and only on the opposite side without them',
    { timeout: 60_000 },
    async () => {
      const limitBuyer = defineStrategy({
        name: 'limit-buyer',
        description: 'bids 1 BTC at 100 on the first book',
        params: z.object({}),
        markets: ['BTCUSD'],
        needs: ['book'],
        create: () => {
          let done = false;
          return {
            onEvent: (e) =>
              e.kind !== 'book' || done
                ? undefined
                : ((done = true), { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '100' }),
          };
        },
      });
      const flat = (i: number) => book(i, [[99, 5]], [[101, 5]]);
      const trades = (i: number, items: [number, string, string][]) => ({
        at: T + i * 1000,
        stream: 'trades:BTCUSD',
        body: {
          items: items.map(([ms, price, amount], k) => ({
            match_number: `m${i}-${k}`,
            price,
            amount,
            executed_at: new Date(T + ms).toISOString(),
          })),
        },
      });
      // trades received at seconds 1 and 3, executed at +500 (100.50: above the bid), +1500 (100 × 0.4: at it), +2500 (99 × 5: through it)
      const lines = [
        flat(0),
        trades(1, [[500, '100.50', '3']]),
        flat(1),
        flat(2),
        trades(3, [
          [1500, '100', '0.4'],
          [2500, '99', '5'],
        ]),
        flat(3),
      ];
      const withTrades = join(dir, 'trades.jsonl');
      writeFileSync(withTrades, `${[HEADER, ...lines.map((l) => JSON.stringify(l))].join('\n')}\n`);
      const run = await runRecordedBookBacktest({ definition: limitBuyer, params: {}, path: withTrades, feeBps: 0 });
      // filled at its own price when each trade executed: 0.4 at +1500, the other 0.6 at +2500
      expect(run.fills.map((f) => [f.side, f.price, f.at - T])).toEqual([
        ['buy', 100, 1500],
        ['buy', 100, 2500],
      ]);
      expect(run.finalBalances).toMatchObject({ USD: '9900', BTC: '1' });
      expect(run.recordedTrades).toBe(3);
      expect(run.dataSource).toMatch(/books: 4; trades: 3/);
      // the same books without the trades: the asks never come down to 100, so nothing fills
      const without = join(dir, 'no-trades.jsonl');
      writeFileSync(
        without,
        `${[HEADER, ...lines.filter((l) => l.stream !== 'trades:BTCUSD').map((l) => JSON.stringify(l))].join('\n')}\n`,
      );
      const dry = await runRecordedBookBacktest({ definition: limitBuyer, params: {}, path: without, feeBps: 0 });
      expect(dry.fills).toEqual([]);
      expect(dry.orders.openAtEnd).toBe(1);
      expect(dry.fillRule).toMatch(/holds no trades/);
      expect(run.fillRule).not.toMatch(/filled only when the opposite side crossed/);
      // trades polled but none happened: the rule says so rather than asking for streams.trades_ms
      const quiet = join(dir, 'quiet-trades.jsonl');
      writeFileSync(
        quiet,
        `${[HEADER, ...lines.map((l) => JSON.stringify(l.stream === 'trades:BTCUSD' ? { ...l, body: { items: [] } } : l))].join('\n')}\n`,
      );
      const still = await runRecordedBookBacktest({ definition: limitBuyer, params: {}, path: quiet, feeBps: 0 });
      expect(still.fills).toEqual([]);
      expect(still.fillRule).toMatch(
        /the recorded trades stream saw no trade of the market, so resting limits filled only when the opposite side crossed them/,
      );
    },
  );

  it("warms on the header's warm-up prices, before the history lines of an older recording", { timeout: 60_000 }, async () => {
    const at = (k: number) => T - k * 60_000;
    const history = (p: string) => ({
      at: T - 1,
      stream: 'history:BTCUSD',
      body: { items: [3, 2, 1].map((k) => ({ average_price: p, timestamp: new Date(at(k)).toISOString() })) },
    });
    const header = (p: string) =>
      JSON.stringify({
        format: 'tradeloop-stream-recording',
        version: 1,
        run: {
          tradeloopVersion: '0.0.0',
          strategies: [],
          warmUp: { increment: 'ONE_MINUTE', points: 3, prices: { BTCUSD: [3, 2, 1].map((k) => [at(k), p]) } },
        },
      });
    const books = [book(0, [[11.99, 5]], [[12.01, 5]]), book(1, [[12.99, 5]], [[13.01, 5]])].map((l) => JSON.stringify(l));
    // the header says 10, 10, 10 (a first mid of 12 crosses fast above slow: a buy); the history lines say 20 (no cross)
    const both = join(dir, 'header-warm.jsonl');
    writeFileSync(both, `${[header('10'), JSON.stringify(history('20')), ...books].join('\n')}\n`);
    const definition = await loadStrategy('sma-cross');
    const params = resolveParams(definition, { fast: 2, slow: 3 }, 'params');
    const run = await runRecordedBookBacktest({ definition, params, path: both, feeBps: 0 });
    expect([run.warmUpEvents, run.warmUpFrom]).toEqual([3, 'header']);
    expect(run.intents.map((i) => [i.at - T, i.side])).toEqual([[0, 'BUY']]);
    const older = join(dir, 'history-warm.jsonl');
    writeFileSync(older, `${[HEADER, JSON.stringify(history('20')), ...books].join('\n')}\n`);
    const old = await runRecordedBookBacktest({ definition, params, path: older, feeBps: 0 });
    expect([old.warmUpEvents, old.warmUpFrom]).toEqual([3, 'history']);
    expect(old.intents).toEqual([]);
  });

  it(
    'takes a stop loss and a transfer as the point model does: the stop fires at the first book whose mid reaches it',
    { timeout: 60_000 },
    async () => {
      // mids 9.75, 10, 11, 9.5, 9, 8.5: the buy takes 100 at the ask of 10; the stop at 9 waits through 10, 11 and 9.5
      const path = join(dir, 'stop.jsonl');
      const mids: [number, number][] = [
        [9.5, 10],
        [9.5, 10.5],
        [10.5, 11.5],
        [9.25, 9.75],
        [8.75, 9.25],
        [8, 9],
      ];
      writeFileSync(
        path,
        `${[HEADER, ...mids.map(([bid, ask], i) => JSON.stringify(book(i, [[bid, 1000]], [[ask, 1000]])))].join('\n')}\n`,
      );
      const run = await runRecordedBookBacktest({ definition: stopAndSave, params: {}, path, feeBps: 0 });
      expect(run.intents.map((t) => [t.kind, t.outcome])).toEqual([
        ['place-order', 'approve'],
        ['place-order', 'approve'],
        ['transfer', 'approve'],
      ]);
      // fires at second 4 (mid 9): 100 sold at the bid of 8.75; USD 10000 - 1000 - 100 + 875
      expect(run.fills.map((f) => [f.side, f.price, f.at - T])).toEqual([
        ['buy', 10, 0],
        ['sell', 8.75, 4000],
      ]);
      expect(run.finalBalances).toMatchObject({ USD: '9775', BTC: '0' });
    },
  );
});
