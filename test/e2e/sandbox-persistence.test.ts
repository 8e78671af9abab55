import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/test-clock.js';
import { T0, startTestSandbox } from '../support/sandbox-fixture.js';

describe('sandbox state file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tradeloop-state-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps balances, profiles, orders, quote executions, transfers, limits and ids across a restart', async () => {
    const file = join(dir, 'nested', 'state.json');
    const limits = [{ transferTypes: ['INTERNAL_TRANSFER_DEBIT'], periodSeconds: 3600, limit: '5000' }];
    const first = await startTestSandbox({ stateFile: file, funding: { USD: '20000' }, sim: { transferLimits: limits } });
    expect(first.handle.restored).toBe(false);
    const token = await first.http.token();
    const bot = (await first.http.post('/v2/profiles', { nickname: 'bot' }, token)).body;
    await first.http.post(
      '/v2/transfer/internal',
      { from_profile_id: 'default', to_profile_id: bot.id, asset: 'USD', amount: '1000', ref_id: 'fund-bot' },
      token,
    );
    const resting = (
      await first.http.post(
        '/v2/profiles/default/orders',
        { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '50000', base_amount: '0.1', ref_id: 'rest-1' },
        token,
      )
    ).body;
    const quote = (await first.http.get('/v2/quotes?markets=ETHUSD', token)).body.items[0];
    const qe = (
      await first.http.post('/v2/profiles/default/quote-executions', { quote_id: quote.id, quote_amount: '100', ref_id: 'qe-1' }, token)
    ).body;
    const before = {
      balances: (await first.http.get('/v2/profiles/default/balances', token)).body,
      transfers: (await first.http.get('/v2/transfer/transfers', token)).body,
    };
    await first.close();
    expect(existsSync(file)).toBe(true);

    const second = await startTestSandbox({ stateFile: file, funding: { USD: '1' }, sim: { transferLimits: limits } });
    try {
      expect(second.handle.restored).toBe(true);
      const t2 = await second.http.token();
      expect((await second.http.get('/v2/profiles/default/balances', t2)).body).toEqual(before.balances);
      expect((await second.http.get('/v2/transfer/transfers', t2)).body).toEqual(before.transfers);
      expect((await second.http.get(`/v2/profiles/${bot.id}`, t2)).body.nickname).toBe('bot');
      expect(
        (await second.http.get('/v2/orders?ref_ids=rest-1', t2)).body.items.map((o: { id: string; status: string }) => [o.id, o.status]),
      ).toEqual([[resting.id, 'OPEN']]);
      expect((await second.http.get(`/v2/profiles/default/quote-executions/${qe.id}`, t2)).body.status).toBe('CREATED');
      expect(
        (await second.http.get('/v2/transfer/limits/utilizations?transfer_type=INTERNAL_TRANSFER_DEBIT', t2)).body.items[0].remaining,
      ).toBe('4000');
      const dup = await second.http.post(
        '/v2/profiles/default/orders',
        { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '50000', base_amount: '0.1', ref_id: 'rest-1' },
        t2,
      );
      expect([dup.status, dup.body.meta.existing.id]).toEqual([409, resting.id]);
      const fresh = (
        await second.http.post(
          '/v2/profiles/default/orders',
          { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '50000', base_amount: '0.1', ref_id: 'rest-2' },
          t2,
        )
      ).body;
      expect(fresh.id).not.toBe(resting.id);
      second.advance(1000);
      expect((await second.http.get(`/v2/profiles/default/quote-executions/${qe.id}`, t2)).body.status).toBe('SETTLED');
      expect(second.handle.sim.orders().map((o) => o.refId)).toEqual(['rest-1', 'rest-2']);
    } finally {
      await second.close();
    }
  });

  it('saves periodically on the wall clock, not only on close', async () => {
    const file = join(dir, 'state.json');
    const wall = new TestClock(T0);
    const sb = await startTestSandbox({ stateFile: file, wallClock: wall, stateIntervalMs: 5000 });
    try {
      const token = await sb.http.token();
      await sb.http.post('/v2/profiles', { nickname: 'saved-later' }, token);
      expect(existsSync(file)).toBe(false);
      wall.advance(5000);
      expect(readFileSync(file, 'utf8')).toContain('saved-later');
    } finally {
      await sb.close();
    }
  });

  it('refuses to start from a file that is not a snapshot, naming the file', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"version":1}');
    await expect(startTestSandbox({ stateFile: file })).rejects.toThrow(/bad\.json/);
  });
});
