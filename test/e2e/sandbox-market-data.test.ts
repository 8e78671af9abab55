import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INCREMENTS_MS } from '../../src/core/markets.js';
import { T0, type TestSandbox, startTestSandbox } from '../support/sandbox-fixture.js';

const iso = (ms: number): string => new Date(ms).toISOString();

describe('sandbox market data and pricing', () => {
  let sb: TestSandbox;
  let token: string;

  beforeAll(async () => {
    sb = await startTestSandbox();
    token = await sb.http.token();
  });
  afterAll(() => sb.close());

  it('lists the 14 trading markets with assets and tick rates', async () => {
    const res = await sb.http.get('/v2/markets');
    expect(res.body.markets).toHaveLength(14);
    expect(res.body.markets).toContainEqual({ market: 'BTCUSD', base_asset: 'BTC', quote_asset: 'USD', tick_rate: '0.01' });
  });

  it('serves a book of several levels per side around mid, best first, including resting bot orders', async () => {
    await sb.http.post(
      '/v2/profiles/default/orders',
      { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '59990', base_amount: '0.5' },
      token,
    );
    const { body } = await sb.http.get('/v2/markets/BTCUSD/order-book');
    const bids = body.bids.map((l: { price: string }) => Number(l.price));
    const asks = body.asks.map((l: { price: string }) => Number(l.price));
    expect(bids.length).toBeGreaterThanOrEqual(5);
    expect(asks.length).toBeGreaterThanOrEqual(5);
    expect(bids).toEqual([...bids].sort((a: number, b: number) => b - a));
    expect(asks).toEqual([...asks].sort((a: number, b: number) => a - b));
    expect(bids[0]).toBeLessThan(asks[0]);
    expect(Math.abs((bids[0] + asks[0]) / 2 - 60_000)).toBeLessThan(30);
    expect(body.bids).toContainEqual({ price: '59990.00', amount: '0.50000000' });
  });

  it('keeps a tape of at most 2000 recent executions, newest first, with bot fills on it', async () => {
    await sb.http.post('/v2/profiles/default/orders', { side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '100' }, token);
    const { body } = await sb.http.get('/v2/markets/BTCUSD/recent-executions');
    expect(body.items).toHaveLength(2000);
    const times = body.items.map((t: { executed_at: string }) => Date.parse(t.executed_at));
    expect(times).toEqual([...times].sort((a: number, b: number) => b - a));
    expect(times[times.length - 1]).toBeLessThan(T0);
    const fill = sb.handle.sim.executions().at(-1)!;
    expect(body.items[0]).toMatchObject({ match_number: fill.matchNumber, amount: fill.amount.toFixed(8) });
  });

  it('gives tickers with 24 h and since-midnight statistics, for one market and all price markets', async () => {
    const { body } = await sb.http.get('/v2/markets/ETHUSD/ticker');
    expect(body.today.start_time).toBe(iso(Date.UTC(2025, 2, 4)));
    expect(body.last_day.start_time).toBe(iso(T0 - 86_400_000));
    expect(Number(body.last_day.high)).toBeGreaterThanOrEqual(Number(body.last_day.low));
    expect(Number(body.last_day.volume)).toBeGreaterThan(0);
    const all = await sb.http.get('/v2/all-markets/ticker');
    expect(Object.keys(all.body)).toEqual(['tickers']);
    expect(all.body.tickers).toHaveLength(10);
    const prices = await sb.http.get('/v2/all-markets/prices?markets=BTCUSD&markets=ETHUSD');
    expect(Object.keys(prices.body)).toEqual(['items']);
    expect(prices.body.items.map((p: { market: string }) => p.market)).toEqual(['BTCUSD', 'ETHUSD']);
    expect(prices.body.items[0].current_price).toBe('60000.00');
    expect((await sb.http.get('/v2/all-markets/prices')).body.detail).toMatch(/^markets: /);
  });

  it('requires exactly one of increment and max_data_points', async () => {
    const neither = await sb.http.get('/v2/markets/ETHUSD/historical-prices', token);
    const both = await sb.http.get('/v2/markets/ETHUSD/historical-prices?increment=ONE_DAY&max_data_points=10', token);
    const wrong = await sb.http.get('/v2/markets/ETHUSD/historical-prices?increment=ONE_YEAR', token);
    expect([neither.status, both.status, wrong.status]).toEqual([400, 400, 400]);
    expect(wrong.body.detail).toMatch(/^increment: /);
  });

  it('serves every increment over a range from before the server started, ascending and aligned', async () => {
    for (const [increment, ms] of Object.entries(INCREMENTS_MS)) {
      const points = Math.min(80, Math.floor((700 * 86_400_000) / ms));
      const begin = T0 - points * ms;
      const res = await sb.http.get(
        `/v2/markets/ETHUSD/historical-prices?increment=${increment}&range.begin=${iso(begin)}&range.end=${iso(T0)}&pagination.limit=1000`,
        token,
      );
      expect(res.status, increment).toBe(200);
      const stamps = res.body.items.map((p: { timestamp: string }) => Date.parse(p.timestamp));
      expect(res.body.total_count, increment).toBe(stamps.length);
      expect(stamps.length, increment).toBeGreaterThanOrEqual(points - 1);
      for (let i = 1; i < stamps.length; i++) expect(stamps[i] - stamps[i - 1]).toBe(ms);
      expect(stamps[0] % ms).toBe(0);
      expect(Number(res.body.items[0].average_price)).toBeGreaterThan(0);
    }
  });

  it('pages with pagination.offset and limit, picks an increment for max_data_points, and ends with the current mid', async () => {
    const base = `/v2/markets/BTCUSD/historical-prices?increment=ONE_MINUTE&range.begin=${iso(T0 - 3_600_000)}&range.end=${iso(T0)}`;
    const all = await sb.http.get(`${base}&pagination.limit=100`, token);
    const page = await sb.http.get(`${base}&pagination.offset=20&pagination.limit=5`, token);
    expect(all.body.total_count).toBe(60);
    expect(page.body.total_count).toBe(60);
    expect(page.body.items).toEqual(all.body.items.slice(20, 25));
    const auto = await sb.http.get(
      `/v2/markets/BTCUSD/historical-prices?max_data_points=50&range.begin=${iso(T0 - 86_400_000)}&range.end=${iso(T0)}`,
      token,
    );
    expect(auto.body.total_count).toBe(48);
    expect(auto.body.items[1].timestamp).toBe(iso(T0 - 86_400_000 + 1_800_000));
    const open = await sb.http.get(`/v2/markets/BTCUSD/historical-prices?increment=ONE_HOUR&range.begin=${iso(T0 - 86_400_000)}`, token);
    expect(open.body.items.at(-1)).toEqual({ average_price: '60000.00', timestamp: iso(sb.clock.now()) });
  });

  it("answers the shapes of the spec's examples with shapes: examples (bare ticker array, prices, market)", async () => {
    const ex = await startTestSandbox({ shapes: 'examples' });
    try {
      const t = await ex.http.token();
      const all = await ex.http.get('/v2/all-markets/ticker');
      expect(Array.isArray(all.body)).toBe(true);
      expect(all.body).toHaveLength(10);
      const prices = await ex.http.get('/v2/all-markets/prices?markets=BTCUSD');
      expect(Object.keys(prices.body)).toEqual(['prices']);
      const hist = await ex.http.get(
        `/v2/markets/BTCUSD/historical-prices?increment=ONE_HOUR&range.begin=${iso(T0 - 7_200_000)}&range.end=${iso(T0)}`,
        t,
      );
      expect(Object.keys(hist.body).sort()).toEqual(['market', 'prices', 'total_count']);
      expect(hist.body.prices).toHaveLength(hist.body.total_count);
    } finally {
      await ex.close();
    }
  });
});
