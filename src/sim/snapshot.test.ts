import { describe, expect, it } from 'vitest';
import { TestClock } from '../clock/test-clock.js';
import { InputError } from '../core/errors.js';
import { SimPlatform } from './sim.js';
import { parseSnapshot } from './snapshot.js';

const T0 = Date.UTC(2025, 2, 4, 10, 0, 0);

/** A sim with something of everything: profiles, resting and stop orders, fills, quote executions, transfers. */
function busySim(clock: TestClock): { sim: SimPlatform; bot: string; resting: string; pendingQe: string } {
  const sim = new SimPlatform({
    clock,
    seed: 9,
    funding: { USD: '100000' },
    transferLimits: [{ transferTypes: ['INTERNAL_TRANSFER_DEBIT'], periodSeconds: 3600, limit: '10000' }],
  });
  const bot = sim.profiles.create('bot', 'grid', sim.now()).id;
  sim.placeOrder({ profileId: 'default', side: 'BUY', market: 'BTCUSD', type: 'MARKET', quoteAmount: '1000', refId: 'm1' });
  const price = Math.floor(sim.mid('BTCUSD') * 0.9).toString();
  const resting = sim.placeOrder({
    profileId: 'default',
    side: 'BUY',
    market: 'BTCUSD',
    type: 'LIMIT',
    baseAmount: '0.01',
    price,
    refId: 'rest-1',
  }).id;
  sim.placeOrder({
    profileId: 'default',
    side: 'SELL',
    market: 'BTCUSD',
    type: 'STOP_MARKET',
    baseAmount: '0.001',
    stopPrice: price,
    refId: 'stop-1',
  });
  sim.internalTransfer({ fromProfileId: 'default', toProfileId: bot, asset: 'USD', amount: '300', refId: 't1' });
  clock.advance(2000);
  const quote = sim.listQuotes(['ETHUSD']).find((q) => q.side === 'BUY')!;
  const pendingQe = sim.executeQuote({ profileId: 'default', quoteId: quote.id, quoteAmount: '50', refId: 'qe-1' }).id;
  return { sim, bot, resting, pendingQe };
}

describe('sim snapshots', () => {
  it('restores balances, profiles, orders on their books, fills, transfers, quote executions, limits and id counters', () => {
    const clock = new TestClock(T0);
    const { sim, bot, resting, pendingQe } = busySim(clock);
    const text = JSON.stringify(sim.snapshot());
    const restored = new SimPlatform({
      clock,
      seed: 1234,
      funding: { USD: '1' },
      restore: parseSnapshot(text, 'state.json'),
      transferLimits: [{ transferTypes: ['INTERNAL_TRANSFER_DEBIT'], periodSeconds: 3600, limit: '10000' }],
    });
    expect(restored.seed).toBe(9);
    expect(restored.profiles.get(bot).nickname).toBe('bot');
    expect(restored.accounts.balances('default')).toEqual(sim.accounts.balances('default'));
    expect(restored.orders().map((o) => [o.id, o.refId, o.status])).toEqual(sim.orders().map((o) => [o.id, o.refId, o.status]));
    expect(restored.executions().map((e) => e.executionId)).toEqual(sim.executions().map((e) => e.executionId));
    expect(restored.orderBook('BTCUSD')).toEqual(sim.orderBook('BTCUSD'));
    expect(restored.allTransfers().map((t) => [t.id, t.status])).toEqual(sim.allTransfers().map((t) => [t.id, t.status]));
    expect(restored.transferLimits('INTERNAL_TRANSFER_DEBIT')[0]!.remaining.toFixed()).toBe('9700');
    expect(() =>
      restored.placeOrder({ profileId: 'default', side: 'BUY', market: 'BTCUSD', type: 'MARKET', quoteAmount: '10', refId: 'm1' }),
    ).toThrow(/already exists/);
    const fresh = restored.placeOrder({
      profileId: 'default',
      side: 'BUY',
      market: 'BTCUSD',
      type: 'MARKET',
      quoteAmount: '10',
      refId: 'm2',
    });
    expect(sim.orders().map((o) => o.id)).not.toContain(fresh.id);
    expect(restored.getQuoteExecution('default', pendingQe).status).toBe('CREATED');
    clock.advance(1000);
    expect(restored.getQuoteExecution('default', pendingQe).status).toBe('SETTLED');
    restored.cancelOrder('default', resting);
    clock.advance(1000);
    expect(restored.getOrder('default', resting).status).toBe('CANCELLED');
    expect(restored.accounts.balance('default', 'USD').trading.toFixed()).toBe('0');
  });

  it('rejects a file that is not a snapshot, naming the file', () => {
    expect(() => parseSnapshot('{', 'x.json')).toThrow(InputError);
    expect(() => parseSnapshot('{"version":99}', 'x.json')).toThrow(/x.json is snapshot version 99/);
    expect(() => parseSnapshot('{"version":1,"seed":1,"tickMs":1000,"startedAt":1,"savedAt":1}', 'x.json')).toThrow(/balances/);
  });
});
