import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type Execution, type Order, type Page } from '../../src/api/index.js';
import { T0 } from '../support/sandbox-fixture.js';
import { type PlatformSandbox, startPlatformSandbox } from '../support/sandbox-platform.js';

const at = (sec: number): string => new Date(T0 + sec * 1000).toISOString();

/**
 * ListOrders / ListProfileOrders `order_time.*` and ListExecutions / ListProfileExecutions `range.*`
 * filters (inclusive bounds) and cursor paging, through the typed client against the sandbox. The
 * records are made at known simulated seconds: resting ETHUSD orders at 0, 10 and 20 s, market buys
 * (each filling over several book levels) at 30 and 40 s on the default profile and at 50 s on a second profile.
 */
describe('sandbox order and execution lists: time filters and paging over HTTP', () => {
  let sb: PlatformSandbox;
  let api: ApiClient;
  let bot: string;
  let def: string;
  const made = new Map<number, Order>();

  beforeAll(async () => {
    sb = await startPlatformSandbox();
    api = sb.api;
    def = (await api.getProfile('default')).id;
    bot = (await api.createProfile({ nickname: 'bot' })).id;
    await api.createSandboxDeposit(bot, { asset: 'USD', amount: '100000' });
    for (const sec of [0, 10, 20, 30, 40, 50]) {
      sb.advance(sec * 1000 - (sb.clock.now() - T0));
      const resting = sec < 30;
      const profile = sec === 50 ? bot : 'default';
      const body = resting
        ? ({ side: 'BUY', market: 'ETHUSD', type: 'LIMIT', price: '100', base_amount: '0.5', ref_id: `t${sec}` } as const)
        : ({ side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '90000', ref_id: `t${sec}` } as const);
      made.set(sec, await api.createOrder(profile, body));
    }
    sb.advance(5000);
  });
  afterAll(() => sb.close());

  const refs = (page: Page<Order>): string[] => page.items.map((o) => o.ref_id!);
  const orderSecs = (items: readonly Execution[]): number[] => [
    ...new Set(items.map((e) => [...made].find(([, o]) => o.id === e.order_id)![0])),
  ];

  it('made the records at the intended times', () => {
    expect([...made.values()].map((o) => [o.created_at, o.status])).toEqual([
      [at(0), 'OPEN'],
      [at(10), 'OPEN'],
      [at(20), 'OPEN'],
      [at(30), 'FILLED'],
      [at(40), 'FILLED'],
      [at(50), 'FILLED'],
    ]);
  });

  it('ListOrders: order_time.begin and order_time.end are inclusive bounds on the order time', async () => {
    expect(refs(await api.listOrders({ 'order_time.begin': at(10), 'order_time.end': at(30) }))).toEqual(['t30', 't20', 't10']);
    expect(refs(await api.listOrders({ 'order_time.begin': at(10.001), 'order_time.end': at(29.999) }))).toEqual(['t20']);
    expect(refs(await api.listOrders({ 'order_time.begin': at(40) }))).toEqual(['t50', 't40']);
    expect(refs(await api.listOrders({ 'order_time.end': at(0) }))).toEqual(['t0']);
    expect(refs(await api.listOrders({ 'order_time.begin': at(51) }))).toEqual([]);
    expect(refs(await api.listOrders({ 'order_time.begin': at(0), 'order_time.end': at(60), profile_id: bot }))).toEqual(['t50']);
    expect(refs(await api.listOrders({ 'order_time.begin': at(10), 'order_time.end': at(40), status: 'OPEN' }))).toEqual(['t20', 't10']);
  });

  it('ListProfileOrders: the same bounds within one profile, paged by cursor', async () => {
    const query = { 'order_time.begin': at(10), 'order_time.end': at(50) } as const;
    expect(refs(await api.listProfileOrders('default', query))).toEqual(['t40', 't30', 't20', 't10']);
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await api.listProfileOrders('default', { ...query, limit: 3, ...(cursor !== undefined ? { page_cursor: cursor } : {}) });
      pages.push(refs(page));
      cursor = page.next_page_cursor || undefined;
    } while (cursor !== undefined && pages.length < 10);
    expect(pages).toEqual([['t40', 't30', 't20'], ['t10']]);
  });

  it('ListExecutions: range.begin and range.end are inclusive bounds on executed_at, alone or with profile_id', async () => {
    const all = (await api.listExecutions({ limit: 1000 })).items;
    expect(orderSecs(all)).toEqual([50, 40, 30]);
    for (const e of all) expect(e.executed_at).toBe(at(orderSecs([e])[0]!));
    expect(orderSecs((await api.listExecutions({ 'range.begin': at(40), 'range.end': at(50) })).items)).toEqual([50, 40]);
    expect(orderSecs((await api.listExecutions({ 'range.begin': at(30.001), 'range.end': at(49.999) })).items)).toEqual([40]);
    expect(orderSecs((await api.listExecutions({ 'range.end': at(30) })).items)).toEqual([30]);
    expect((await api.listExecutions({ 'range.begin': at(50.001) })).items).toEqual([]);
    expect(orderSecs((await api.listExecutions({ 'range.begin': at(30), profile_id: bot })).items)).toEqual([50]);
    expect(orderSecs((await api.listExecutions({ 'range.begin': at(30), profile_id: def })).items)).toEqual([40, 30]);
  });

  it('ListProfileExecutions: range bounds within one profile, with every execution once over cursor pages', async () => {
    const inRange = { 'range.begin': at(30), 'range.end': at(40) } as const;
    const whole = (await api.listProfileExecutions('default', { ...inRange, limit: 500 })).items;
    expect(orderSecs(whole)).toEqual([40, 30]);
    expect(whole.length).toBeGreaterThan(2);
    expect(orderSecs((await api.listProfileExecutions('default', { 'range.begin': at(35) })).items)).toEqual([40]);
    expect((await api.listProfileExecutions(bot, inRange)).items).toEqual([]);
    const paged: Execution[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.listProfileExecutions('default', {
        ...inRange,
        limit: 1,
        ...(cursor !== undefined ? { page_cursor: cursor } : {}),
      });
      sizes.push(page.items.length);
      paged.push(...page.items);
      cursor = page.next_page_cursor || undefined;
    } while (cursor !== undefined && sizes.length < 100);
    expect(sizes.every((n) => n === 1)).toBe(true);
    expect(paged.map((e) => e.execution_id)).toEqual(whole.map((e) => e.execution_id));
    const viaPaginate: string[] = [];
    for await (const e of api.paginate<Execution>('ListExecutions', { query: { ...inRange, limit: 2 } })) viaPaginate.push(e.execution_id!);
    expect(viaPaginate).toEqual(whole.map((e) => e.execution_id));
  });

  it('refuses a malformed time bound naming the parameter', async () => {
    const raw = await sb.http.get('/v2/orders?order_time.begin=yesterday', await sb.http.token());
    expect(raw.status).toBe(400);
    expect(raw.body.detail).toContain('order_time.begin');
    const range = await sb.http.get('/v2/executions?range.end=2025-13-01T00:00:00Z', await sb.http.token());
    expect(range.status).toBe(400);
    expect(range.body.detail).toContain('range.end');
  });
});
