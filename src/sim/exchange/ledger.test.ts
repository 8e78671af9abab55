import { describe, expect, it } from 'vitest';
import { D } from '../../core/decimal.js';
import { Ledger } from './ledger.js';

const text = (l: Ledger, p: string) => l.list(p).map(([asset, b]) => [asset, b.available.toFixed(), b.trading.toFixed()]);

describe('Ledger', () => {
  it('moves every leg of a change list or none: a leg going negative leaves all balances as they were', () => {
    const l = new Ledger();
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
  });

  it('sums the legs of one asset, adds nothing for an absent side, and keeps assets in the order first held', () => {
    const l = new Ledger();
    l.credit('p', 'USD', new D('100'));
    l.reserve('p', 'USD', new D('60'));
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
    expect(l.saved()).toEqual([
      ['p', 'USD', '40.03', '0'],
      ['p', 'BTC', '0.001', '0'],
      ['q', 'BTC', '2', '0'],
    ]);
  });

  it('hands out copies: a balance read before a change keeps its values', () => {
    const l = new Ledger();
    l.credit('p', 'USD', new D('100'));
    const before = l.get('p', 'USD');
    const listed = l.list('p');
    l.reserve('p', 'USD', new D('30'));
    expect([before.available.toFixed(), before.trading.toFixed()]).toEqual(['100', '0']);
    expect(listed[0]![1].available.toFixed()).toBe('100');
    expect(l.get('p', 'USD').available.toFixed()).toBe('70');
  });
});
