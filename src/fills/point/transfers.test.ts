import { describe, expect, it } from 'vitest';
import { TestClock } from '../../clock/index.js';
import { InputError } from '../../core/errors.js';
import { SimError } from '../../sim/errors.js';
import { PointMarket } from './market.js';
import { SimPlatform } from '../../sim/sim.js';

const T0 = Date.UTC(2024, 0, 1);
const DAY = 86_400_000;

function market(options: ConstructorParameters<typeof PointMarket>[0] = {}): PointMarket {
  const m = new PointMarket({ funding: { USD: '6000000', BTC: '2' }, ...options });
  m.point('BTCUSD', T0, 50_000);
  return m;
}

/** The sandbox's simulated platform with the same funding and a second profile. */
function sandbox(): { sim: SimPlatform; other: string } {
  const sim = new SimPlatform({ clock: new TestClock(T0), seed: 42, funding: { USD: '6000000' } });
  return { sim, other: sim.profiles.create('savings', undefined, sim.now()).id };
}

/** What a refusal says: its kind, words and details (SimError), or its field (InputError). */
function refusal(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    if (e instanceof SimError) return { kind: e.kind, message: e.message, meta: e.meta };
    if (e instanceof InputError) return { field: e.field, message: e.message };
    throw e;
  }
  return 'accepted';
}

const usd = (m: PointMarket, profile?: string): string => m.balance('USD', profile).available.toFixed();

describe('point replay transfers between profiles', () => {
  it('moves available funds to a profile it creates on the first transfer, settled at once', () => {
    const m = market();
    const version = m.version;
    const t = m.transfer({ refId: 't1', asset: 'USD', amount: '250.00', fromProfileId: 'default', toProfileId: 'savings' });
    expect(t).toMatchObject({ refId: 't1', status: 'COMPLETED', fromProfileId: 'backtest', toProfileId: 'savings', at: T0 });
    expect([usd(m), usd(m, 'savings')]).toEqual(['5999750', '250']);
    expect(m.version).toBeGreaterThan(version);
    const back = m.transfer({ refId: 't2', asset: 'USD', amount: '50', fromProfileId: 'savings', toProfileId: 'backtest' });
    expect(back.toProfileId).toBe('backtest');
    expect([usd(m), usd(m, 'savings')]).toEqual(['5999800', '200']);
  });

  it('returns the transfer already made with a ref_id and moves nothing twice', () => {
    const m = market();
    const req = { refId: 't1', asset: 'BTC', amount: '0.5', fromProfileId: 'default', toProfileId: 'cold' };
    const t = m.transfer(req);
    expect(m.transfer(req)).toBe(t);
    expect(m.findTransferByRef('t1')).toBe(t);
    expect(m.findTransferByRef('t1-missing')).toBeUndefined();
    expect([m.balance('BTC').available.toFixed(), m.balance('BTC', 'cold').available.toFixed()]).toEqual(['1.5', '0.5']);
  });

  it('holds configured profiles with their funding, and refuses one named like its own', () => {
    const m = market({ profiles: { treasury: { USD: '10' } } });
    expect(usd(m, 'treasury')).toBe('10');
    expect(() => m.balances('nowhere')).toThrow(/profile nowhere not found/);
    expect(() => new PointMarket({ profiles: { default: {} } })).toThrow(InputError);
  });

  it('refuses over the remaining limit, beyond the funds and malformed transfers as the sandbox does', () => {
    const m = market();
    const { sim, other } = sandbox();
    const both = (req: {
      refId: string;
      amount: string;
      asset?: string;
      fromProfileId?: string;
      toProfileId?: string;
    }): [unknown, unknown] => {
      const full = { asset: 'USD', fromProfileId: 'default', ...req };
      return [
        refusal(() => m.transfer({ toProfileId: 'savings', ...full })),
        refusal(() => sim.internalTransfer({ toProfileId: other, ...full })),
      ];
    };
    const same = (req: Parameters<typeof both>[0]): unknown => {
      const [point, sandboxAnswer] = both(req);
      expect(point).toEqual(sandboxAnswer);
      return point;
    };
    expect(same({ refId: 'big', amount: '1000000.01' })).toMatchObject({ kind: 'transfer-limit-exceeded' });
    for (let i = 0; i < 5; i++) expect(same({ refId: `m${i}`, amount: '1000000' })).toBe('accepted');
    const daily = same({ refId: 'over', amount: '0.01' });
    expect(daily).toMatchObject({ kind: 'transfer-limit-exceeded', meta: { period_seconds: '86400', remaining: '0' } });
    expect(m.transferLimits().map((l) => [l.periodSeconds, l.remaining.toFixed()])).toEqual(
      sim.transferLimits('INTERNAL_TRANSFER_DEBIT').map((l) => [l.periodSeconds, l.remaining.toFixed()]),
    );
    expect(same({ refId: 'bad', amount: '1.001' })).toMatchObject({ kind: 'exceed-precision' });
    expect(same({ refId: 'self', amount: '1', toProfileId: 'default' })).toMatchObject({ field: 'to_profile_id' });
    expect(same({ refId: 'asset', amount: '1', asset: 'XYZ' })).toMatchObject({ field: 'asset' });
  });

  it('refuses a transfer beyond the available funds with the insufficient-funds refusal', () => {
    const m = market();
    m.place({ refId: 'o', market: 'BTCUSD', side: 'SELL', type: 'LIMIT', baseAmount: '1.5', price: '60000' });
    expect(
      refusal(() => m.transfer({ refId: 't', asset: 'BTC', amount: '0.6', fromProfileId: 'default', toProfileId: 'cold' })),
    ).toMatchObject({ kind: 'insufficient-funds', meta: { available: '0.5', needed: '0.6' } });
    expect(
      refusal(() => m.transfer({ refId: 'u', asset: 'USD', amount: '1', fromProfileId: 'cold', toProfileId: 'default' })),
    ).toMatchObject({ kind: 'not-found' });
    // a transfer refused for want of funds uses none of the limits, as in the sandbox
    expect(m.transferLimits().map((l) => l.remaining.toFixed())).toEqual(m.transferLimits().map((l) => l.limit.toFixed()));
    const { sim } = sandbox();
    expect(
      refusal(() =>
        sim.internalTransfer({
          fromProfileId: sim.profiles.create('empty', undefined, sim.now()).id,
          toProfileId: 'default',
          asset: 'USD',
          amount: '100',
        }),
      ),
    ).toMatchObject({ kind: 'insufficient-funds' });
    expect(sim.transferLimits('INTERNAL_TRANSFER_DEBIT').map((l) => l.remaining.toFixed())).toEqual(
      sim.transferLimits('INTERNAL_TRANSFER_DEBIT').map((l) => l.limit.toFixed()),
    );
  });

  it('values crypto at the current point for the limits, and recovers the daily limit a day later', () => {
    const m = market({ funding: { BTC: '200' } });
    m.transfer({ refId: 'a', asset: 'BTC', amount: '19', fromProfileId: 'default', toProfileId: 'cold' }); // 950,000 USD
    expect(
      m
        .transferLimits()
        .find((l) => l.periodSeconds === 86_400)
        ?.remaining.toFixed(),
    ).toBe('4050000');
    expect(
      refusal(() => m.transfer({ refId: 'b', asset: 'BTC', amount: '20.01', fromProfileId: 'default', toProfileId: 'cold' })),
    ).toMatchObject({ kind: 'transfer-limit-exceeded', meta: { period_seconds: '0', amount: '1000500.00' } });
    m.point('BTCUSD', T0 + DAY, 40_000);
    expect(
      m
        .transferLimits()
        .find((l) => l.periodSeconds === 86_400)
        ?.remaining.toFixed(),
    ).toBe('5000000');
    expect(m.transfer({ refId: 'b', asset: 'BTC', amount: '20.01', fromProfileId: 'default', toProfileId: 'cold' }).at).toBe(T0 + DAY); // 800,400 USD now
  });

  it('refuses a transfer before the first point (the replay has no time yet)', () => {
    const m = new PointMarket({ funding: { USD: '10' } });
    expect(() => m.transfer({ refId: 't', asset: 'USD', amount: '1', fromProfileId: 'default', toProfileId: 'x' })).toThrow(
      /first price point/,
    );
  });
});
