import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RateLimitedError, ServerError } from '../../src/api/index.js';
import { Rng } from '../../src/core/index.js';
import { ConfigSchema } from '../../src/config/index.js';
import { SecretSet } from '../../src/log/index.js';
import {
  backoffDelayMs,
  JsonLinesRecorder,
  nextSlotDelayMs,
  parseStreamName,
  planStreams,
  ResponseDecoder,
  streamName,
  streamSettingsFromConfig,
} from '../../src/venue/index.js';

const sub = (market: string, ...kinds: Array<'price' | 'ticker' | 'book' | 'quote'>) => ({ market, kinds: new Set(kinds) });

describe('poll cadence and backoff', () => {
  it('schedules the next poll on the grid of the last start, skipping slots a slow response missed', () => {
    expect(nextSlotDelayMs(0, 200, 1_000)).toBe(800);
    expect(nextSlotDelayMs(0, 1_000, 1_000)).toBe(0);
    expect(nextSlotDelayMs(0, 2_500, 1_000)).toBe(500);
  });

  it('doubles the backoff per consecutive error with seeded jitter, capped, and honours Retry-After', () => {
    const settings = { baseMs: 100, maxMs: 1_000 };
    const draws = (seed: number): number[] => {
      const rng = new Rng(seed);
      return [1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(n, new ServerError('x', { operation: 'GetTicker' }), settings, rng));
    };
    const d = draws(1);
    expect(d).toEqual(draws(1));
    [100, 200, 400, 800, 1_000, 1_000].forEach((ceiling, i) => {
      expect(d[i]).toBeGreaterThanOrEqual(ceiling / 2);
      expect(d[i]).toBeLessThanOrEqual(ceiling);
    });
    const limited = new RateLimitedError('slow down', { operation: 'GetTicker', retryAfterMs: 5_000 });
    expect(backoffDelayMs(1, limited, settings, new Rng(1))).toBe(5_000);
  });
});

describe('planStreams', () => {
  it('polls only what is subscribed: one ticker/book stream per market, one prices and one quotes request for all', () => {
    const plan = planStreams([sub('BTCUSD', 'ticker', 'price'), sub('ETHUSD', 'price', 'quote'), sub('BTCUSD', 'book')], false);
    expect(plan.map((p) => p.name)).toEqual(['ticker:BTCUSD', 'book:BTCUSD', 'prices', 'quotes']);
    expect(plan.find((p) => p.name === 'prices')?.markets).toEqual(['BTCUSD', 'ETHUSD']);
    expect(planStreams([], true).map((p) => p.name)).toEqual(['balances', 'open-orders', 'fills', 'quote-executions']);
  });

  it('names the subscription and the fix when the platform has no such stream for the market', () => {
    expect(() => planStreams([sub('BTCUSD', 'price'), sub('ETHEUR', 'price')], false)).toThrow(
      /^subscriptions\[1\]\.market: "ETHEUR" has no price stream: ListPrices covers .*subscribe to "ticker"/,
    );
    expect(() => planStreams([sub('BTCBRL', 'quote')], false)).toThrow(/subscriptions\[0\]\.market/);
  });

  it('round-trips stream names', () => {
    expect(parseStreamName(streamName({ kind: 'book', market: 'BTCUSD' }))).toEqual({ kind: 'book', market: 'BTCUSD' });
    expect(parseStreamName('prices')).toEqual({ kind: 'prices' });
    expect(parseStreamName('candles:BTCUSD')).toBeUndefined();
  });
});

describe('ResponseDecoder', () => {
  it('maps a ticker to numbers with the receive time and the server time beside it', () => {
    const [e] = new ResponseDecoder().decode(
      { kind: 'ticker', market: 'BTCUSD' },
      {
        market: 'BTCUSD',
        best_bid: { price: '99.5', amount: '2' },
        best_ask: { price: '100.5', amount: '1' },
        last_execution: { price: '100', amount: '0.1' },
        today: { high: '110', low: '90', open: '95', volume: '3' },
        snapshot_at: '2025-01-01T00:00:05Z',
      },
      1_000,
    ).market;
    expect(e).toEqual({
      kind: 'ticker',
      market: 'BTCUSD',
      at: 1_000,
      serverAt: Date.UTC(2025, 0, 1, 0, 0, 5),
      bid: { price: 99.5, amount: 2 },
      ask: { price: 100.5, amount: 1 },
      last: { price: 100, amount: 0.1 },
      dayHigh: 110,
      dayLow: 90,
      dayOpen: 95,
      dayVolume: 3,
    });
  });

  it('keeps a fixed number of book levels and drops unreadable ones', () => {
    const bids = Array.from({ length: 80 }, (_, i) => ({ price: String(100 - i / 100), amount: '1' }));
    const [e] = new ResponseDecoder({ bookDepth: 10 }).decode(
      { kind: 'book', market: 'BTCUSD' },
      { market: 'BTCUSD', bids: [{ price: 'x', amount: '1' }, ...bids], asks: [] },
      5,
    ).market;
    expect(e?.kind === 'book' && e.bids.length).toBe(10);
    expect(e?.kind === 'book' && e.bids[0]?.price).toBe(100);
  });

  it('keeps balances and order amounts Decimal and reports each fill once', () => {
    const d = new ResponseDecoder({ fillMemory: 2 });
    const bal = d.decode({ kind: 'balances' }, { items: [{ asset: 'USD', available: '0.1', trading: '0.2' }] }, 1).account;
    expect(bal?.kind === 'balances' && bal.items[0]?.available.plus(bal.items[0].trading).toFixed()).toBe('0.3');
    const fill = (id: string) => ({
      execution_id: id,
      order_id: 'o',
      executed_at: '2025-01-01T00:00:00Z',
      market: 'BTCUSD',
      side: 'BUY',
      amount: '1',
      price: '2',
      commission: '0',
      commission_asset: 'USD',
    });
    expect(d.decode({ kind: 'fills' }, { items: [fill('a'), fill('b')] }, 2).fills?.map((f) => f.fillId)).toEqual(['a', 'b']);
    expect(d.decode({ kind: 'fills' }, { items: [fill('a'), fill('b'), fill('c')] }, 3).fills?.map((f) => f.fillId)).toEqual(['c']);
  });

  it('reports only unsettled quote executions as pending', () => {
    const x = (id: string, status: string) => ({
      id,
      profile_id: 'p',
      quote_id: 'q',
      status,
      market: 'BTCUSD',
      side: 'BUY',
      price: '1',
      base_amount: '1',
      base_asset: 'BTC',
      quote_amount: '1',
      quote_asset: 'USD',
      created_at: '2025-01-01T00:00:00Z',
    });
    const a = new ResponseDecoder().decode({ kind: 'quote-executions' }, { items: [x('1', 'CREATED'), x('2', 'SETTLED')] }, 1).account;
    expect(a?.kind === 'quote-executions' && a.pending.map((p) => p.executionId)).toEqual(['1']);
  });

  it('refuses a body that is not an object or lacks its list, as a malformed response', () => {
    expect(() => new ResponseDecoder().decode({ kind: 'prices' }, { prices: 'x' }, 1)).toThrow(/prices response: expected an items array/);
    expect(() => new ResponseDecoder().decode({ kind: 'ticker', market: 'BTCUSD' }, null, 1)).toThrow(/not a JSON object/);
  });
});

describe('JsonLinesRecorder', () => {
  it('censors secret fields and bearer tokens and writes a list the client aliased only once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-rec-'));
    try {
      const secrets = new SecretSet();
      secrets.add('s3cret-value');
      const rec = new JsonLinesRecorder(join(dir, 'r.jsonl'), { secrets });
      const list = [{ market: 'BTCUSD', current_price: '1' }];
      rec.write({
        at: 5,
        stream: 'prices',
        body: { prices: list, items: list, access_token: 'abc', note: 'Bearer abc.def and s3cret-value' },
      });
      await rec.close();
      const [, line] = readFileSync(join(dir, 'r.jsonl'), 'utf8').trim().split('\n');
      expect(JSON.parse(line!)).toEqual({
        at: 5,
        stream: 'prices',
        body: { items: list, access_token: '[REDACTED]', note: 'Bearer [REDACTED] and [REDACTED]' },
      });
      expect(rec.stats()).toEqual({ written: 1, dropped: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('streamSettingsFromConfig', () => {
  it('takes every interval from the streams section, with fills and quote executions at the orders cadence', () => {
    const cfg = ConfigSchema.parse({ streams: { ticker_ms: 5_000, orders_ms: 700, record: 'run.jsonl' } });
    const s = streamSettingsFromConfig(cfg.streams);
    expect(s.intervals).toEqual({
      pricesMs: 1_000,
      tickerMs: 5_000,
      bookMs: 1_000,
      quotesMs: 1_000,
      balancesMs: 2_000,
      ordersMs: 700,
      fillsMs: 700,
      quoteExecutionsMs: 700,
    });
    expect([s.staleAfterMs, s.historyCapacity, s.warmUpPoints, s.recordPath]).toEqual([10_000, 2_048, 200, 'run.jsonl']);
  });
});
