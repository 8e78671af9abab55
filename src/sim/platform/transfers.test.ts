import { describe, expect, it } from 'vitest';
import { TestClock } from '../../clock/test-clock.js';
import { SimError } from '../errors.js';
import { SimPlatform } from '../sim.js';

const T0 = Date.UTC(2025, 2, 4, 10, 0, 0);

function newSim(
  limits = [
    { transferTypes: ['INTERNAL_TRANSFER_DEBIT'], periodSeconds: 3600, limit: '1000' },
    { transferTypes: ['INTERNAL_TRANSFER_DEBIT'], periodSeconds: 0, limit: '600' },
  ],
) {
  const clock = new TestClock(T0);
  const sim = new SimPlatform({ clock, seed: 5, funding: { USD: '5000' }, transferLimits: limits });
  const bot = sim.profiles.create('bot', undefined, sim.now());
  return { sim, clock, bot };
}

function refusal(fn: () => unknown): SimError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SimError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('internal transfers', () => {
  it('debits the sender at once, credits the recipient when both legs complete, sharing a group_id', () => {
    const { sim, clock, bot } = newSim();
    const debit = sim.internalTransfer({
      fromProfileId: 'default',
      toProfileId: bot.id,
      asset: 'USD',
      amount: '250.50',
      refId: 'move-1',
      metadata: { why: 'rebalance' },
    });
    expect(debit).toMatchObject({ type: 'INTERNAL_TRANSFER_DEBIT', direction: 'DEBIT', status: 'PENDING', refId: 'move-1' });
    expect(sim.accounts.balance('default', 'USD').available.toFixed()).toBe('4749.5');
    expect(sim.accounts.balance(bot.id, 'USD').available.toFixed()).toBe('0');
    clock.advance(1000);
    const legs = sim.listTransfers({ groupIds: [debit.groupId!] }).items;
    expect(legs.map((t) => [t.type, t.status, t.profileId])).toEqual([
      ['INTERNAL_TRANSFER_DEBIT', 'COMPLETED', sim.profiles.defaultId],
      ['INTERNAL_TRANSFER_CREDIT', 'COMPLETED', bot.id],
    ]);
    expect(sim.accounts.balance(bot.id, 'USD').available.toFixed()).toBe('250.5');
    expect(sim.getTransfer(debit.id).updatedAt).toBe(T0 + 1000);
  });

  it('refuses missing funds (403), unknown profiles (404), reused ref_ids (409) and a transfer to itself (400)', () => {
    const { sim, bot } = newSim();
    expect(refusal(() => sim.internalTransfer({ fromProfileId: bot.id, toProfileId: 'default', asset: 'USD', amount: '1' })).kind).toBe(
      'insufficient-funds',
    );
    // refused for want of funds: none of the limits is used
    expect(sim.transferLimits('INTERNAL_TRANSFER_DEBIT').map((l) => l.remaining.toFixed())).toEqual(['1000', '600']);
    expect(refusal(() => sim.internalTransfer({ fromProfileId: 'default', toProfileId: 'nope', asset: 'USD', amount: '1' })).kind).toBe(
      'not-found',
    );
    const first = sim.internalTransfer({ fromProfileId: 'default', toProfileId: bot.id, asset: 'USD', amount: '1', refId: 'r' });
    const dup = refusal(() =>
      sim.internalTransfer({ fromProfileId: 'default', toProfileId: bot.id, asset: 'USD', amount: '1', refId: 'r' }),
    );
    expect(dup.existing).toEqual({ kind: 'transfer', id: first.id });
    expect(() => sim.internalTransfer({ fromProfileId: 'default', toProfileId: 'default', asset: 'USD', amount: '1' })).toThrow(
      /to_profile_id/,
    );
    expect(() => sim.internalTransfer({ fromProfileId: 'default', toProfileId: bot.id, asset: 'DOGE', amount: '1' })).toThrow(/asset/);
  });

  it('lowers the remaining limit as transfers are made, refuses one over it, and recovers after the period', () => {
    const { sim, clock, bot } = newSim();
    const remaining = () => sim.transferLimits('INTERNAL_TRANSFER_DEBIT').map((l) => `${l.periodSeconds}:${l.remaining.toFixed()}`);
    expect(remaining()).toEqual(['3600:1000', '0:600']);
    sim.internalTransfer({ fromProfileId: 'default', toProfileId: bot.id, asset: 'USD', amount: '400' });
    clock.advance(600_000);
    sim.internalTransfer({ fromProfileId: 'default', toProfileId: bot.id, asset: 'USD', amount: '500' });
    expect(remaining()).toEqual(['3600:100', '0:600']);
    const over = refusal(() => sim.internalTransfer({ fromProfileId: 'default', toProfileId: bot.id, asset: 'USD', amount: '100.01' }));
    expect(over.kind).toBe('transfer-limit-exceeded');
    expect(over.meta).toMatchObject({ period_seconds: '3600', limit: '1000', remaining: '100', limit_asset: 'USD', amount: '100.01' });
    expect(
      refusal(() => sim.internalTransfer({ fromProfileId: 'default', toProfileId: bot.id, asset: 'USD', amount: '600.01' })).meta,
    ).toMatchObject({ period_seconds: '0' });
    clock.advance(3_000_000);
    expect(remaining()).toEqual(['3600:500', '0:600']);
    clock.advance(600_000);
    expect(remaining()).toEqual(['3600:1000', '0:600']);
    expect(sim.transferLimits('CRYPTO_WITHDRAWAL')).toEqual([]);
  });

  it('values crypto transfers in USD at the simulated price for the limits', () => {
    const { sim, bot } = newSim([{ transferTypes: ['INTERNAL_TRANSFER_DEBIT'], periodSeconds: 60, limit: '100000' }]);
    sim.deposit({ profileId: 'default', asset: 'BTC', amount: '1', cryptoNetwork: 'BITCOIN' });
    sim.internalTransfer({ fromProfileId: 'default', toProfileId: bot.id, asset: 'BTC', amount: '0.5' });
    const left = sim.transferLimits('INTERNAL_TRANSFER_DEBIT')[0]!.remaining.toNumber();
    expect(100_000 - left).toBeCloseTo(sim.mid('BTCUSD') * 0.5, -1);
  });

  it('lists with filters, CREATED_AT order newest first by default and UPDATED_AT order oldest first', () => {
    const { sim, clock, bot } = newSim();
    const a = sim.internalTransfer({ fromProfileId: 'default', toProfileId: bot.id, asset: 'USD', amount: '1', refId: 'a' });
    clock.advance(5000);
    const b = sim.internalTransfer({ fromProfileId: 'default', toProfileId: bot.id, asset: 'USD', amount: '2', refId: 'b' });
    const debits = sim.listTransfers({ types: ['INTERNAL_TRANSFER_DEBIT'] }).items.map((t) => t.refId);
    expect(debits).toEqual(['b', 'a']);
    expect(sim.listTransfers({ refIds: ['a'], profileIds: [bot.id] }).items.map((t) => t.type)).toEqual(['INTERNAL_TRANSFER_CREDIT']);
    expect(sim.listTransfers({ statuses: ['PENDING'] }).items.map((t) => t.refId)).toEqual(['b', 'b']);
    clock.advance(1000);
    const byUpdate = sim.listTransfers({ orderBy: 'UPDATED_AT', updated: { gt: T0 } }).items.map((t) => t.id);
    expect(byUpdate.slice(0, 2)).toContain(a.id);
    expect(byUpdate.at(-1)).toBe(b.id);
    expect(sim.listTransfers({ created: { gte: T0 + 1 } }).items.every((t) => t.refId === 'b')).toBe(true);
    expect(sim.listTransfers({ secondaryStatuses: ['CUSTOMER_REJECTED'] }).items).toEqual([]);
  });
});
