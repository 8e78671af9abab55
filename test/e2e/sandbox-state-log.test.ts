import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/test-clock.js';
import { StateStore } from '../../src/sandbox/state-store.js';
import { SimPlatform } from '../../src/sim/sim.js';
import { T0, startTestSandbox, type TestSandbox } from '../support/sandbox-fixture.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire bodies are checked by assertions, not by types
type Json = Record<string, any>;

/** A resting bid, a market buy that fills at once, and a quote execution: the kinds of record a bot makes. */
async function trade(sb: TestSandbox, tag: string): Promise<{ resting: Json; market: Json; qe: Json; fills: Json[] }> {
  const token = await sb.http.token();
  const resting = (
    await sb.http.post(
      '/v2/profiles/default/orders',
      { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '50000', base_amount: '0.1', ref_id: `${tag}-rest` },
      token,
    )
  ).body;
  const market = (
    await sb.http.post(
      '/v2/profiles/default/orders',
      { side: 'BUY', market: 'BTCUSD', type: 'MARKET', quote_amount: '1000', ref_id: `${tag}-mkt` },
      token,
    )
  ).body;
  const quote = (await sb.http.get('/v2/quotes?markets=ETHUSD', token)).body.items[0];
  const qe = (
    await sb.http.post('/v2/profiles/default/quote-executions', { quote_id: quote.id, quote_amount: '100', ref_id: `${tag}-qe` }, token)
  ).body;
  const fills = (await sb.http.get('/v2/profiles/default/executions', token)).body.items as Json[];
  return { resting, market, qe, fills };
}

/** The files a SIGKILL leaves behind: the database and its write-ahead log, copied while the sandbox runs. */
function copyAsKilled(file: string, to: string): void {
  copyFileSync(file, to);
  if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${to}-wal`);
}

describe('sandbox SQLite state file: every change saved before the answer', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradeloop-state-log-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a world copied as a SIGKILL leaves it holds every order, fill and quote execution a client was told of', async () => {
    const file = join(dir, 'sandbox-state.sqlite');
    const first = await startTestSandbox({ stateFile: file, instanceId: 'world-a' });
    const told = await trade(first, 'k');
    expect(told.fills.length).toBeGreaterThan(0);
    const killed = join(dir, 'killed.sqlite');
    copyAsKilled(file, killed);
    await first.close();

    const second = await startTestSandbox({ stateFile: killed, instanceId: 'ignored-for-a-restored-world' });
    try {
      expect([second.handle.restored, second.handle.instanceId]).toEqual([true, 'world-a']);
      const token = await second.http.token();
      expect(second.handle.sim.orders().map((o) => [o.refId, o.id])).toEqual([
        ['k-rest', told.resting.id],
        ['k-mkt', told.market.id],
      ]);
      expect((await second.http.get('/v2/profiles/default/executions', token)).body.items.map((e: Json) => e.execution_id)).toEqual(
        told.fills.map((e) => e.execution_id),
      );
      expect((await second.http.get(`/v2/profiles/default/quote-executions/${told.qe.id}`, token)).body.ref_id).toBe('k-qe');
      // it continues the same world: new ids follow, never repeat
      const next = await trade(second, 'k2');
      expect([told.resting.id, told.market.id]).not.toContain(next.market.id);
      expect(new Set(next.fills.map((e) => e.execution_id)).size).toBe(next.fills.length);
    } finally {
      await second.close();
    }
  });

  it('writes only the rows that changed, not the whole world', () => {
    const clock = new TestClock(T0);
    const sim = new SimPlatform({ clock, seed: 5, instanceId: 'rows', funding: { USD: '100000', EUR: '10' } });
    const store = new StateStore(join(dir, 'rows.sqlite'));
    try {
      for (let i = 0; i < 30; i++)
        sim.placeOrder({
          profileId: 'default',
          side: 'BUY',
          market: 'BTCUSD',
          type: 'LIMIT',
          price: '1000',
          baseAmount: '0.01',
          refId: `r${i}`,
        });
      const all = store.persist(sim.snapshot());
      expect(all).toBeGreaterThan(35);
      expect(store.persist(sim.snapshot())).toBe(0);
      sim.placeOrder({
        profileId: 'default',
        side: 'BUY',
        market: 'BTCUSD',
        type: 'LIMIT',
        price: '1000',
        baseAmount: '0.01',
        refId: 'one-more',
      });
      // the new order, the USD balance, the id counters (and nothing else of the 30 orders)
      expect(store.persist(sim.snapshot())).toBeLessThanOrEqual(4);
      expect(() => new StateStore(join(dir, 'rows.sqlite'))).toThrow(/rows\.sqlite is in use by another sandbox/);
    } finally {
      store.close();
    }
    const again = new StateStore(join(dir, 'rows.sqlite'));
    expect(again.load()?.orders.map((o) => o.refId)).toEqual([...Array.from({ length: 30 }, (_, i) => `r${i}`), 'one-more']);
    again.close();
  });

  it('refuses a damaged state file naming it, the row and the fix', async () => {
    const file = join(dir, 'damaged.sqlite');
    const store = new StateStore(file);
    store.persist(new SimPlatform({ clock: new TestClock(T0), seed: 3, instanceId: 'dmg' }).snapshot());
    store.close();
    const db = new Database(file);
    db.prepare("UPDATE sandbox_state SET body = '{not json' WHERE section = 'whole' AND key = 'ids'").run();
    db.close();
    await expect(startTestSandbox({ stateFile: file })).rejects.toThrow(
      /damaged\.sqlite: the whole row "ids" is not valid JSON: delete it .* to start a new world, or restore a good copy/,
    );
  });

  it('a sandbox that cannot listen lets go of its state file', async () => {
    const file = join(dir, 'busy-port.sqlite');
    const first = await startTestSandbox();
    try {
      await expect(startTestSandbox({ stateFile: file, port: first.handle.port })).rejects.toThrow(/EADDRINUSE/);
      new StateStore(file).close();
    } finally {
      await first.close();
    }
  });

  it('two sandboxes with one seed issue different ids over the same market', async () => {
    const a = await startTestSandbox({ instanceId: 'alpha' });
    const b = await startTestSandbox({ instanceId: 'beta' });
    try {
      const [ta, tb] = [await trade(a, 'same'), await trade(b, 'same')];
      expect(ta.market.id).not.toBe(tb.market.id);
      expect(ta.resting.id).not.toBe(tb.resting.id);
      expect(ta.qe.id).not.toBe(tb.qe.id);
      const idsA = new Set(ta.fills.map((e) => e.execution_id));
      expect(tb.fills.some((e) => idsA.has(e.execution_id))).toBe(false);
      expect(tb.fills.map((e) => e.price)).toEqual(ta.fills.map((e) => e.price));
      const transfers = async (sb: TestSandbox): Promise<string[]> =>
        (await sb.http.get('/v2/transfer/transfers', await sb.http.token())).body.items.map((t: Json) => t.id);
      expect((await transfers(a)).some((id) => (tb.qe.id as string) === id)).toBe(false);
      expect(await transfers(a)).not.toEqual(await transfers(b));
      expect(a.handle.sim.mid('ETHUSD')).toBe(b.handle.sim.mid('ETHUSD'));
      const res = await fetch(`${a.handle.apiUrl}/markets`);
      expect(res.headers.get('x-sandbox-instance')).toBe('alpha');
      // execution ids of an instance pass 2^53 and still page in order
      const oldest = ta.fills.at(-1)!.execution_id as string;
      expect(BigInt(oldest)).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
      const since = (await a.http.get(`/v2/profiles/default/executions?since_execution_id=${oldest}`, await a.http.token())).body
        .items as Json[];
      expect(since.map((e) => e.execution_id)).toEqual(ta.fills.slice(0, -1).map((e) => e.execution_id));
      // without an instance id given, two sandboxes started together with one seed still differ
      const [c, d] = [await startTestSandbox(), await startTestSandbox()];
      expect(c.handle.instanceId).not.toBe(d.handle.instanceId);
      await c.close();
      await d.close();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
