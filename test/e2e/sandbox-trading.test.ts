import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, ConflictError, ForbiddenError, createApiClient } from '../../src/api/index.js';
import { D } from '../../src/core/decimal.js';
import { DROP_AT, T0, type TestSandbox, startTestSandbox } from '../support/sandbox-fixture.js';

describe('sandbox trading over HTTP with the project client', () => {
  let sb: TestSandbox;
  let api: ApiClient;

  beforeEach(async () => {
    sb = await startTestSandbox({ sim: { rules: { cancelDelayMs: 1000 } } });
    api = createApiClient({
      apiUrl: sb.handle.apiUrl,
      tokenUrl: sb.handle.tokenUrl,
      clientId: 'tradeloop-local',
      clientSecret: 'tradeloop-local-secret',
    });
  });

  afterEach(async () => {
    await api.close();
    await sb.close();
  });

  const balance = async (asset: string): Promise<{ available: string; trading: string }> => api.getProfileBalance('default', asset);

  it('funds a profile, market-buys with quote_amount and moves balances by gross plus taker commission', async () => {
    const p = await api.createProfile({ nickname: 'bot-a' });
    await api.createSandboxDeposit(p.id, { asset: 'USD', amount: '5000' });
    const order = await api.createOrder(p.id, { side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '1000', ref_id: 'mkt-1' });
    expect(order.status).toBe('FILLED');
    const fills = await api.listProfileExecutions(p.id, { order_id: order.id! });
    expect(fills.items.length).toBeGreaterThan(0);
    const gross = fills.items.reduce((s, e) => s.plus(e.gross_trade_amount!), new D(0));
    const commission = fills.items.reduce((s, e) => s.plus(e.commission!), new D(0));
    expect(commission.toFixed()).toBe(gross.times('0.001').toFixed());
    expect(fills.items.every((e) => e.commission_asset === 'USD')).toBe(true);
    const usd = await api.getProfileBalance(p.id, 'USD');
    const btc = await api.getProfileBalance(p.id, 'BTC');
    expect(usd.available).toBe(new D(5000).minus(gross).minus(commission).toFixed());
    expect(usd.trading).toBe('0');
    expect(btc.available).toBe(order.amount_filled);
    expect(new D(order.amount_filled!).gt(0)).toBe(true);
  });

  it('market-sells by base_amount down the bid levels, crediting gross minus taker commission in USD', async () => {
    await api.createSandboxDeposit('default', { asset: 'BTC', amount: '2', crypto_network: 'BITCOIN' });
    const usdBefore = new D((await balance('USD')).available);
    // What the sell should take, level by level from the best bid (the clock stands still meanwhile).
    const expected: [string, string][] = [];
    let left = new D('1.2');
    for (const level of (await api.getOrderBook('BTCUSD')).bids) {
      if (left.lte(0)) break;
      const qty = D.min(left, level.amount);
      expected.push([new D(level.price).toFixed(), qty.toFixed()]);
      left = left.minus(qty);
    }
    expect(expected.length).toBeGreaterThan(1);
    const order = await api.createOrder('default', {
      side: 'SELL',
      market: 'BTCUSD',
      type: 'MARKET',
      base_amount: '1.2',
      ref_id: 'sell-1',
    });
    expect(order).toMatchObject({ status: 'FILLED', side: 'SELL', base_amount: '1.2', amount_filled: '1.2' });
    const fills = [...(await api.listProfileExecutions('default', { order_id: order.id })).items].reverse();
    expect(fills.map((e) => [new D(e.price!).toFixed(), new D(e.amount!).toFixed()])).toEqual(expected);
    for (const e of fills) {
      expect(e.side).toBe('SELL');
      expect(e.commission_asset).toBe('USD');
      expect(new D(e.gross_trade_amount!).toFixed()).toBe(new D(e.amount!).times(e.price!).toFixed());
      expect(new D(e.commission!).toFixed()).toBe(new D(e.gross_trade_amount!).times('0.001').toFixed());
    }
    const gross = fills.reduce((s, e) => s.plus(e.gross_trade_amount!), new D(0));
    const commission = fills.reduce((s, e) => s.plus(e.commission!), new D(0));
    expect(order.volume_weighted_average_price).toBe(gross.div('1.2').toDecimalPlaces(8).toFixed());
    expect(await balance('BTC')).toEqual({ asset: 'BTC', available: '0.8', trading: '0' });
    expect(await balance('USD')).toEqual({ asset: 'USD', available: usdBefore.plus(gross).minus(commission).toFixed(), trading: '0' });
  });

  it('rests a limit buy, then fills it fully when the price falls through it', async () => {
    const order = await api.createOrder('default', { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '59500', base_amount: '0.01' });
    expect(order.status).toBe('OPEN');
    expect((await balance('USD')).trading).toBe('595.595');
    sb.advance(DROP_AT - T0 - 2000);
    expect((await api.getOrder('default', order.id!)).status).toBe('OPEN');
    sb.advance(3000);
    const filled = await api.getOrder('default', order.id!);
    expect(filled.status).toBe('FILLED');
    expect(filled.amount_filled).toBe('0.01');
    expect(filled.volume_weighted_average_price).toBe('59500');
    expect(await balance('USD')).toEqual({
      asset: 'USD',
      available: new D(2_000_000).minus('595').minus('0.2975').toFixed(),
      trading: '0',
    });
    expect((await balance('BTC')).available).toBe('0.01');
  });

  it('fills a large resting order partially at the first crossing and completely over later ticks', async () => {
    const order = await api.createOrder('default', { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '59500', base_amount: '20' });
    sb.advance(DROP_AT - T0);
    const partial = await api.getOrder('default', order.id!);
    expect(partial.status).toBe('OPEN');
    const filled = new D(partial.amount_filled!);
    expect(filled.gt(0) && filled.lt(20)).toBe(true);
    const usd = await balance('USD');
    expect(usd.trading).toBe(new D(20).minus(filled).times('59500').times('1.001').toFixed());
    sb.advance(60_000);
    const done = await api.getOrder('default', order.id!);
    expect(done.status).toBe('FILLED');
    expect((await balance('BTC')).available).toBe('20');
    expect((await balance('USD')).trading).toBe('0');
  });

  it('acknowledges a cancel, applies it after the delay, and refuses to cancel a closed order', async () => {
    const order = await api.createOrder('default', { side: 'BUY', market: 'ETHUSD', type: 'LIMIT', price: '100', base_amount: '2' });
    expect(await api.cancelOrder('default', order.id!)).toEqual({});
    expect((await api.getOrder('default', order.id!)).status).toBe('OPEN');
    sb.advance(1000);
    expect((await api.getOrder('default', order.id!)).status).toBe('CANCELLED');
    expect((await balance('USD')).trading).toBe('0');
    await expect(api.cancelOrder('default', order.id!)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('rejects a post-only order that would take, and rests one that would not', async () => {
    const taker = await api.createOrder('default', {
      side: 'BUY',
      market: 'BTCUSD',
      type: 'POST_ONLY_LIMIT',
      price: '60100',
      base_amount: '0.1',
    });
    expect(taker.status).toBe('REJECTED');
    const maker = await api.createOrder('default', {
      side: 'BUY',
      market: 'BTCUSD',
      type: 'POST_ONLY_LIMIT',
      price: '59900',
      base_amount: '0.1',
    });
    expect(maker.status).toBe('OPEN');
    const book = await api.getOrderBook('BTCUSD');
    expect(book.bids.some((l) => l.price === '59900.00')).toBe(true);
  });

  it('rejects taker limit orders beyond the 15 % band and refuses orders above the notional caps', async () => {
    const far = await api.createOrder('default', { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '69100', base_amount: '0.01' });
    expect(far.status).toBe('REJECTED');
    const near = await api.createOrder('default', { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '68000', base_amount: '0.01' });
    expect(near.status).toBe('FILLED');
    const limitCap = api.createOrder('default', { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '55000', base_amount: '30' });
    await expect(limitCap).rejects.toMatchObject({ status: 403, slug: 'notional-value-too-large' });
    const marketCap = api.createOrder('default', { side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '600000' });
    await expect(marketCap).rejects.toMatchObject({ status: 403, slug: 'notional-value-too-large' });
    const funds = api.createOrder('default', { side: 'SELL', market: 'BTCUSD', type: 'MARKET', base_amount: '1' });
    await expect(funds).rejects.toMatchObject({ status: 403, slug: 'insufficient-funds' });
  });

  it('answers ref_id reuse with 409 and the existing order', async () => {
    const first = await api.createOrder('default', {
      side: 'BUY',
      market: 'ETHUSD',
      type: 'LIMIT',
      price: '100',
      base_amount: '1',
      ref_id: 'dup-1',
    });
    const again = api.createOrder('default', {
      side: 'BUY',
      market: 'ETHUSD',
      type: 'LIMIT',
      price: '101',
      base_amount: '1',
      ref_id: 'dup-1',
    });
    await expect(again).rejects.toBeInstanceOf(ConflictError);
    const err = (await again.catch((e: unknown) => e)) as ConflictError;
    expect((err.existing as { id: string }).id).toBe(first.id);
    const raw = await sb.http.post(
      '/v2/profiles/default/orders',
      { side: 'BUY', market: 'ETHUSD', type: 'LIMIT', price: '100', base_amount: '1', ref_id: 'dup-1' },
      await sb.http.token(),
    );
    expect(raw.status).toBe(409);
    expect(raw.contentType).toContain('application/problem+json');
    expect(raw.body).toMatchObject({
      type: 'https://developer.paxos.com/docs/v2/problems/already-exists',
      title: 'Already Exists',
      status: 409,
      meta: { existing: { id: first.id, ref_id: 'dup-1' } },
    });
  });

  it('holds a create with await_fill_millis until the order fills or the wait ends, on the sandbox clock', async () => {
    const placed = (n: number) => async (): Promise<void> => {
      while (sb.handle.sim.orders().length < n) await new Promise((r) => setImmediate(r));
    };
    const waiting = api.createOrder('default', {
      side: 'BUY',
      market: 'BTCUSD',
      type: 'LIMIT',
      price: '59500',
      base_amount: '0.01',
      await_fill_millis: 10_000,
    });
    await placed(1)();
    sb.advance(10_000);
    expect((await waiting).status).toBe('OPEN');
    sb.advance(DROP_AT - sb.clock.now() - 3000);
    const filling = api.createOrder('default', {
      side: 'BUY',
      market: 'BTCUSD',
      type: 'LIMIT',
      price: '59500',
      base_amount: '0.02',
      await_fill_millis: 10_000,
    });
    await placed(2)();
    sb.advance(4000);
    const filled = await filling;
    expect(filled.status).toBe('FILLED');
    expect(filled.amount_filled).toBe('0.02');
  });

  it('pages orders with opaque cursors, newest first, and filters by ref_ids and status', async () => {
    for (let i = 0; i < 25; i++)
      await api.createOrder('default', {
        side: 'BUY',
        market: 'ETHUSD',
        type: 'LIMIT',
        price: '100',
        base_amount: '0.1',
        ref_id: `page-${i}`,
      });
    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    do {
      const page = await api.listProfileOrders('default', { limit: 10, ...(cursor ? { page_cursor: cursor } : {}) });
      sizes.push(page.items.length);
      seen.push(...page.items.map((o) => o.ref_id!));
      cursor = page.next_page_cursor || undefined;
    } while (cursor !== undefined);
    expect(sizes).toEqual([10, 10, 5]);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `page-${24 - i}`));
    const picked = await api.listOrders({ ref_ids: ['page-3', 'page-7'] });
    expect(picked.items.map((o) => o.ref_id).sort()).toEqual(['page-3', 'page-7']);
    const open = await api.listOrders({ status: 'OPEN', market: 'ETHUSD', limit: 1000 });
    expect(open.items).toHaveLength(25);
    const raw = await sb.http.get('/v2/orders?page_cursor=bm9wZQ', await sb.http.token());
    expect(raw.status).toBe(400);
    expect(raw.body.detail).toContain('page_cursor');
  });
});
