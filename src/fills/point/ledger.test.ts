import { describe, expect, it } from 'vitest';
import { D } from '../../core/decimal.js';
import { Ledger } from '../../sim/exchange/ledger.js';
import { PointLedger } from './ledger.js';

const text = (
  l: { list(p: string): Array<readonly [string, { available: { toFixed(): string }; trading: { toFixed(): string } }]> },
  p: string,
) => l.list(p).map(([asset, b]) => [asset, b.available.toFixed(), b.trading.toFixed()]);

describe('PointLedger: the sim ledger in exact units', () => {
  it('moves as the sim Ledger moves, change lists, refusals and all', () => {
    for (const l of [new Ledger(), new PointLedger()]) {
      l.credit('p', 'USD', new D('100'));
      l.reserve('p', 'USD', new D('60'));
      expect(() =>
        l.apply([
          { profileId: 'p', asset: 'USD', trading: new D('-60'), available: new D('10') },
          { profileId: 'p', asset: 'BTC', available: new D('0.5') },
          { profileId: 'p', asset: 'USD', available: new D('-51') },
        ]),
      ).toThrow(/USD in p would go negative/);
      expect(text(l, 'p')).toEqual([['USD', '40', '60']]);
      l.apply([
        { profileId: 'p', asset: 'USD', trading: new D('-60'), available: new D('0.05') },
        { profileId: 'p', asset: 'BTC', available: new D('0.001') },
        { profileId: 'p', asset: 'USD', available: new D('-0.02') },
        { profileId: 'q', asset: 'BTC', available: new D('2') },
      ]);
      expect(text(l, 'p')).toEqual([
        ['USD', '40.03', '0'],
        ['BTC', '0.001', '0'],
      ]);
      expect(text(l, 'q')).toEqual([['BTC', '2', '0']]);
      const refusal = (() => {
        try {
          l.require('p', 'USD', new D('40.031'));
        } catch (e) {
          return e as { kind: string; message: string; meta: unknown };
        }
      })();
      expect([refusal?.kind, refusal?.message, refusal?.meta]).toEqual([
        'insufficient-funds',
        'insufficient USD funds in profile p: 40.031 needed, 40.03 available',
        { profile_id: 'p', asset: 'USD', available: '40.03', needed: '40.031' },
      ]);
      expect([l.get('r', 'USD').available.toFixed(), l.get('r', 'USD').trading.toFixed()]).toEqual(['0', '0']);
    }
  });

  it('widens an asset to the finest amount it is given, in every profile, and never rounds', () => {
    const l = new PointLedger();
    l.credit('p', 'USD', new D('10'));
    l.credit('q', 'USD', new D('1.5'));
    l.reserveUnits('p', 'USD', 250n, 2); // 2.50
    l.credit('q', 'USD', new D('0.000000001'));
    l.settleUnits('p', 'USD', 250n, 125n, 2, 'BTC', 12345n, 8);
    // a sale credits quote finer than the balance held so far: widened first, then added
    l.credit('r', 'BTC', new D('1'));
    l.settleUnits('r', 'BTC', 0n, 0n, 8, 'EUR', 12n, 1);
    l.settleUnits('r', 'BTC', 0n, 0n, 8, 'EUR', 345n, 3);
    expect(text(l, 'r')).toEqual([
      ['BTC', '1', '0'],
      ['EUR', '1.545', '0'],
    ]);
    expect(text(l, 'p')).toEqual([
      ['USD', '8.75', '0'],
      ['BTC', '0.00012345', '0'],
    ]);
    expect(text(l, 'q')).toEqual([['USD', '1.500000001', '0']]);
    expect([l.totalNumber('p', 'USD'), l.totalNumber('p', 'BTC'), l.totalNumber('p', 'ETH')]).toEqual([8.75, 0.00012345, 0]);
  });

  it("refuses a reservation beyond the available funds with the sandbox's words, moving nothing", () => {
    const l = new PointLedger();
    l.credit('p', 'USD', new D('10'));
    expect(() => l.reserveUnits('p', 'USD', 1001n, 2)).toThrow('insufficient USD funds in profile p: 10.01 needed, 10 available');
    expect(text(l, 'p')).toEqual([['USD', '10', '0']]);
    expect(() => l.settleUnits('p', 'USD', 0n, 1100n, 2, 'BTC', 1n, 8)).toThrow(/USD in p would go negative/);
    expect(text(l, 'p')).toEqual([['USD', '10', '0']]);
  });

  it("lists an asset its funds check read, where the sandbox's Ledger does not (one reason the sandbox keeps its own: docs/backtest.md)", () => {
    const units = new PointLedger();
    const decimals = new Ledger();
    for (const l of [units, decimals]) {
      l.credit('p', 'USD', new D('10'));
      expect(() => l.reserve('p', 'BTC', new D('0.5'))).toThrow('insufficient BTC funds in profile p: 0.5 needed, 0 available');
    }
    expect(text(decimals, 'p')).toEqual([['USD', '10', '0']]);
    expect(text(units, 'p')).toEqual([
      ['USD', '10', '0'],
      ['BTC', '0', '0'],
    ]);
  });

  it('hands out readings that keep their values, are the same object until a change, and write as JSON', () => {
    const l = new PointLedger();
    l.credit('p', 'USD', new D('100'));
    const before = l.get('p', 'USD');
    expect(l.balances('p')[0]).toBe(before);
    l.reserveUnits('p', 'USD', 3000n, 2);
    expect([before.available.toFixed(), before.trading.toFixed()]).toEqual(['100', '0']);
    expect(l.get('p', 'USD')).not.toBe(before);
    expect(l.get('p', 'USD').available.toFixed()).toBe('70');
    expect(JSON.stringify(l.balances('p'))).toBe('[{"asset":"USD","available":"70","trading":"30"}]');
    expect({ ...l.get('p', 'USD') }).toEqual({ asset: 'USD' });
  });
});
