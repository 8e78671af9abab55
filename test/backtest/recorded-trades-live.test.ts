/**
 * A real `tradeloop run` on the embedded sandbox with `streams.record` and `streams.trades_ms`: its
 * recording holds the market's trades (each once) and a header with the warm-up prices, and a book
 * replay of it fills a resting limit on a recorded trade that went through its price — which the same
 * recording without its trades never fills, because no recorded book crossed that price.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runRecordedBookBacktest } from '../../backtest/book-run.js';
import { defineStrategy } from '../../src/strategy/index.js';
import { readRecordingHeader } from '../../src/venue/polling/recording-reader.js';
import { runCli } from '../cli/cli-helpers.js';
import { useTradeloop } from '../support/reliability-procs.js';

const start = useTradeloop();
const cwd = mkdtempSync(join(tmpdir(), 'tradeloop-rec-trades-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

type Line = {
  at: number;
  stream: string;
  body: { items?: { match_number: string; price: string; executed_at: string }[]; bids?: { price: string }[]; asks?: { price: string }[] };
};

/** Rests one small limit order at `price` on the first recorded book, then does nothing. */
const rester = defineStrategy({
  name: 'rester',
  description: 'rests one limit order on the first book',
  params: z.object({ side: z.enum(['BUY', 'SELL']), price: z.string() }),
  markets: ['BTCUSD'],
  needs: ['book'],
  create: (p) => {
    let done = false;
    return {
      onEvent: (e) => {
        if (e.kind !== 'book' || done) return undefined;
        done = true;
        return { kind: 'place-order', market: 'BTCUSD', side: p.side, type: 'LIMIT', baseAmount: '0.001', price: p.price };
      },
    };
  },
});

/**
 * A recorded trade after the first book whose price no recorded book crossed from the side our order
 * would rest on: a buy at that price no later ask reached, or a sell no later bid reached.
 */
function uncrossedTrade(lines: readonly Line[]): { side: 'BUY' | 'SELL'; price: string; firstAt: number } | undefined {
  const books = lines.filter((l) => l.stream === 'book:BTCUSD');
  const t1 = books[0]!.at;
  const asks = books.map((b) => Number(b.body.asks?.[0]?.price ?? Infinity));
  const bids = books.map((b) => Number(b.body.bids?.[0]?.price ?? 0));
  const trades = lines
    .filter((l) => l.stream === 'trades:BTCUSD')
    .flatMap((l) => l.body.items ?? [])
    .map((t) => ({ price: Number(t.price), text: t.price, at: Date.parse(t.executed_at) }))
    .filter((t) => t.at > t1);
  for (const t of trades) {
    for (const side of ['BUY', 'SELL'] as const) {
      const crossedByBook = side === 'BUY' ? asks.some((a) => a <= t.price) : bids.some((b) => b >= t.price);
      if (crossedByBook) continue;
      // the first trade at or through that price fills the order
      const first = trades.find((x) => (side === 'BUY' ? x.price <= t.price : x.price >= t.price))!;
      return { side, price: t.text, firstAt: first.at };
    }
  }
  return undefined;
}

describe('a live run recording its trades', () => {
  it(
    'records each trade once with the warm-up in the header, and the book replay fills a resting limit on them',
    { timeout: 90_000 },
    async () => {
      const config = join(cwd, 'bot.yaml');
      const recording = join(cwd, 'run.jsonl');
      writeFileSync(
        config,
        [
          'environment: local',
          'strategies:',
          '  - plugin: grid-maker',
          '    params: { market: BTCUSD }',
          `streams: { prices_ms: 250, book_ms: 250, trades_ms: 250, warmup_points: 3, record: ${recording} }`,
          `journal: { path: ${join(cwd, 'journal.sqlite')} }`,
        ].join('\n'),
      );
      const run = start(['run', '--config', config, '--duration', '8s', '--json'], cwd);
      expect(await run.exit).toBe(0);

      const header = await readRecordingHeader(recording);
      expect(header?.warmUp).toMatchObject({ increment: 'ONE_MINUTE', points: 3 });
      expect(header?.warmUp?.prices?.BTCUSD).toHaveLength(3);
      const lines = readFileSync(recording, 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => JSON.parse(l) as Line);
      const tradeLines = lines.filter((l) => l.stream === 'trades:BTCUSD');
      const ids = tradeLines.flatMap((l) => l.body.items!.map((t) => t.match_number));
      expect(tradeLines.length).toBeGreaterThan(10);
      expect(ids.length).toBeGreaterThan(0);
      expect(new Set(ids).size).toBe(ids.length);

      const pick = uncrossedTrade(lines);
      expect(
        pick,
        'a recorded trade after the first book at a price no recorded book crossed (the market moved more than its spread both ways in 8 s)',
      ).toBeDefined();
      const initial = { USD: '10000', BTC: '1' };
      const withTrades = await runRecordedBookBacktest({
        definition: rester,
        params: { side: pick!.side, price: pick!.price },
        path: recording,
        initial,
        feeBps: 0,
      });
      expect(withTrades.recordedTrades).toBe(ids.length);
      expect(withTrades.fills.map((f) => [f.side, f.price, f.at])).toEqual([
        [pick!.side.toLowerCase(), Number(pick!.price), pick!.firstAt],
      ]);
      const stripped = join(cwd, 'no-trades.jsonl');
      const raw = readFileSync(recording, 'utf8').trim().split('\n');
      writeFileSync(stripped, `${[raw[0], ...raw.slice(1).filter((l) => !l.includes('"stream":"trades:'))].join('\n')}\n`);
      const withoutTrades = await runRecordedBookBacktest({
        definition: rester,
        params: { side: pick!.side, price: pick!.price },
        path: stripped,
        initial,
        feeBps: 0,
      });
      expect(withoutTrades.fills).toEqual([]);
      expect(withoutTrades.orders.openAtEnd).toBe(1);

      // the CLI's manifest names the trades and the header's warm-up
      const cli = await runCli(['backtest', '--strategy', 'grid-maker', '--data', recording, '--json']);
      expect(cli.code).toBe(0);
      const out = JSON.parse(cli.stdout);
      expect(out.manifest.data.source).toMatch(new RegExp(`trades: ${ids.length}\\)`));
      expect(out.manifest.fill_rule).not.toMatch(/holds no trades/);
      expect(out.manifest.warm_up.note).toMatch(/warm-up history, as it was live: 3 prices from the recording's header/);
    },
  );
});
