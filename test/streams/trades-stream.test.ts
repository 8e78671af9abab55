/**
 * The recent-trades stream (`streams.trades_ms`) and the warm-up prices in a recording's header: the
 * plan polls each subscribed market's trades only when asked, a poll records only the trades new since
 * the last one, a malformed trade is refused naming its field, the config sets the interval, and the
 * recorder holds its header back until the warm-up is loaded so the header carries its prices.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MalformedResponseError } from '../../src/api/index.js';
import { TestClock } from '../../src/clock/index.js';
import { ConfigSchema } from '../../src/config/index.js';
import {
  JsonLinesRecorder,
  PollingMarketSource,
  planStreams,
  RecordedMarketSource,
  ResponseDecoder,
  streamSettingsFromConfig,
  TradeTape,
  tradesFromWire,
  type MarketDataApi,
} from '../../src/venue/index.js';
import { readRecordingHeader } from '../../src/venue/polling/recording-reader.js';
import { turns } from '../support/streams-harness.js';

const T0 = Date.UTC(2024, 0, 1);
const dir = mkdtempSync(join(tmpdir(), 'tradeloop-trades-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sub = (market: string, ...kinds: Array<'price' | 'ticker' | 'book' | 'quote'>) => ({ market, kinds: new Set(kinds) });
const wire = (id: string, at: number, price = '100.5', amount = '0.25') => ({
  match_number: id,
  price,
  amount,
  executed_at: new Date(at).toISOString(),
});

describe('the trades stream', () => {
  it('is planned per subscribed market-data market only when asked for', () => {
    const subs = [sub('BTCUSD', 'book'), sub('ETHUSD', 'price')];
    expect(planStreams(subs, false).map((p) => p.name)).toEqual(['book:BTCUSD', 'prices']);
    expect(planStreams(subs, false, { trades: true }).map((p) => p.name)).toEqual([
      'book:BTCUSD',
      'prices',
      'trades:BTCUSD',
      'trades:ETHUSD',
    ]);
  });

  it('keeps only the trades new since the last poll (after the stream started), oldest first', () => {
    const tape = new TradeTape(T0);
    // the platform lists newest first; one trade is from before the stream started
    expect(tape.fresh({ items: [wire('b', T0 + 20), wire('a', T0 + 10), wire('old', T0 - 5)] }).items).toEqual([
      wire('a', T0 + 10),
      wire('b', T0 + 20),
    ]);
    // the same list again plus two new: one at the newest time seen (another match number), one later
    expect(tape.fresh({ items: [wire('d', T0 + 30), wire('c', T0 + 20), wire('b', T0 + 20), wire('a', T0 + 10)] }).items).toEqual([
      wire('c', T0 + 20),
      wire('d', T0 + 30),
    ]);
    expect(tape.fresh({ items: [wire('d', T0 + 30), wire('c', T0 + 20)] }).items).toEqual([]);
  });

  it('refuses a trade without a price, amount or time, naming the field; the decoder makes no strategy events of trades', () => {
    expect(() => tradesFromWire({ items: [wire('a', T0), { ...wire('b', T0), price: '-1' }] })).toThrow(
      /items\[1\]\.price is "-1", expected a decimal string above zero/,
    );
    expect(() => tradesFromWire({ items: [{ ...wire('a', T0), executed_at: 'yesterday' }] })).toThrow(/items\[0\]\.executed_at/);
    expect(() => new TradeTape(T0).fresh({ items: [{ ...wire('a', T0), amount: 5 }] })).toThrow(MalformedResponseError);
    expect(() => new ResponseDecoder().decode({ kind: 'trades', market: 'BTCUSD' }, { nothing: 1 }, T0)).toThrow(
      /trades response: expected an items array/,
    );
    // no strategy events: the trades go to the bar builders only (the engine's onTrades)
    expect(new ResponseDecoder().decode({ kind: 'trades', market: 'BTCUSD' }, { items: [wire('a', T0)] }, T0)).toEqual({
      market: [],
      trades: { market: 'BTCUSD', trades: [{ at: T0, price: 100.5, amount: 0.25 }] },
    });
    expect(tradesFromWire({ items: [wire('a', T0, '101', '2')] })).toEqual([{ matchNumber: 'a', price: '101', amount: '2', at: T0 }]);
  });

  it('streams.trades_ms sets the interval (off unless set) and is refused below 250 ms', () => {
    expect(streamSettingsFromConfig(ConfigSchema.parse({}).streams).intervals.tradesMs).toBeUndefined();
    expect(streamSettingsFromConfig(ConfigSchema.parse({ streams: { trades_ms: 500 } }).streams).intervals.tradesMs).toBe(500);
    expect(() => ConfigSchema.parse({ streams: { trades_ms: 100 } })).toThrow(/at least 250 ms/);
  });

  it("a polling source records each poll's new trades only", async () => {
    const clock = new TestClock(T0);
    let tape = [wire('old', T0 - 1)];
    const api = { listRecentExecutions: async () => ({ items: [...tape].reverse() }) } as unknown as MarketDataApi;
    const path = join(dir, 'polled.jsonl');
    const recorder = new JsonLinesRecorder(path);
    const source = new PollingMarketSource({ api, clock, recorder, intervals: { tradesMs: 1_000 } });
    source.start([sub('BTCUSD', 'book')].map((s) => ({ ...s, kinds: new Set<'price'>() })));
    expect(source.streams()).toEqual(['trades:BTCUSD']);
    for (let i = 1; i <= 3; i++) {
      await turns(10);
      tape = [...tape, wire(`t${i}`, T0 + i * 1_000 - 500)];
      clock.advance(1_000);
    }
    await turns(10);
    await source.stop();
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l) as { at: number; stream: string; body: { items: { match_number: string }[] } });
    expect(lines.map((l) => [l.at - T0, l.stream, l.body.items.map((x) => x.match_number)])).toEqual([
      [0, 'trades:BTCUSD', []],
      [1_000, 'trades:BTCUSD', ['t1']],
      [2_000, 'trades:BTCUSD', ['t2']],
      [3_000, 'trades:BTCUSD', ['t3']],
    ]);
  });
});

describe('warm-up prices in the recording header', () => {
  const run = { tradeloopVersion: '0.0.0', strategies: [], warmUp: { increment: 'ONE_MINUTE', points: 2 } };
  const history = (prices: string[]) => ({
    items: prices.map((p, i) => ({ average_price: p, timestamp: new Date(T0 - (prices.length - i) * 60_000).toISOString() })),
  });

  it('holds the header until the warm-up is loaded, then writes its last prices per market into it', async () => {
    const path = join(dir, 'warm.jsonl');
    const rec = new JsonLinesRecorder(path, { run });
    rec.write({ at: T0 - 2, stream: 'history:ETHUSD', body: history(['2000']) });
    rec.write({ at: T0 - 1, stream: 'history:BTCUSD', body: history(['9', '10.50', '11']) });
    rec.write({ at: T0, stream: 'prices', body: { items: [] } });
    await rec.close();
    const lines = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { stream?: string; run?: unknown });
    expect(lines.map((l) => l.stream ?? 'header')).toEqual(['header', 'history:ETHUSD', 'history:BTCUSD', 'prices']);
    const header = await readRecordingHeader(path);
    // the last 2 of BTCUSD's three; ETHUSD's one
    expect(header?.warmUp?.prices).toEqual({
      BTCUSD: [
        [T0 - 120_000, '10.5'],
        [T0 - 60_000, '11'],
      ],
      ETHUSD: [[T0 - 60_000, '2000']],
    });
    expect(rec.stats()).toEqual({ written: 3, dropped: 0 });
    // a replay warms on the header's prices
    const source = new RecordedMarketSource({ path, clock: new TestClock(T0) });
    expect((await source.warmUp(['BTCUSD'], 5)).map((e) => (e.kind === 'price' ? e.price : undefined))).toEqual([10.5, 11]);
  });

  it('writes the header on close when the run ended during its warm-up', async () => {
    const path = join(dir, 'cut.jsonl');
    const rec = new JsonLinesRecorder(path, { run });
    rec.write({ at: T0, stream: 'history:BTCUSD', body: history(['9']) });
    await rec.close();
    expect((await readRecordingHeader(path))?.warmUp?.prices).toEqual({ BTCUSD: [[T0 - 60_000, '9']] });
  });

  it('without a warm-up asked for the header is written as before, and such a recording (warm-up only in its history lines) still warms a replay; a malformed prices field is refused', async () => {
    const path = join(dir, 'older.jsonl');
    const rec = new JsonLinesRecorder(path, { run: { ...run, warmUp: { increment: 'ONE_MINUTE', points: 0 } } });
    rec.write({ at: T0, stream: 'history:BTCUSD', body: history(['9', '10']) });
    await rec.close();
    expect((await readRecordingHeader(path))?.warmUp?.prices).toBeUndefined();
    const source = new RecordedMarketSource({ path, clock: new TestClock(T0) });
    expect((await source.warmUp(['BTCUSD'], 5)).length).toBe(2);
    const bad = join(dir, 'bad.jsonl');
    const rec2 = new JsonLinesRecorder(bad, {
      run: { ...run, warmUp: { increment: 'ONE_MINUTE', points: 1, prices: { BTCUSD: [[T0, 'ten']] } } },
    });
    await rec2.close();
    await expect(readRecordingHeader(bad)).rejects.toThrow(/run\.warmUp\.prices\.BTCUSD\[0\] should be a pair/);
  });
});
