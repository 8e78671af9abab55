import { describe, expect, it } from 'vitest';
import { D } from '../../core/index.js';
import { exactOf } from '../../core/exact.js';
import { platformInstrument } from '../../platform/instruments.js';
import { TradeFacts } from '../facts.js';
import { checkOwnPosition } from './own-position.js';

const ownership = { restricted: () => true, ownSellable: () => new D('0.05') };
const quoteSell = (quotes: object) =>
  new TradeFacts(
    { kind: 'execute-quote', intentId: 'q-1', strategy: 'grid', market: 'BTCUSD', side: 'SELL', quoteAmount: '3' },
    platformInstrument('BTCUSD'),
    undefined,
    exactOf('3'),
    undefined,
    { market: 'BTCUSD', quotes, updatedAt: 0 } as never,
    100,
  );

describe('checkOwnPosition: a sell sized in the quote asset', () => {
  it("counts at the live quote's price, not the mid (3 USD is 0.03 BTC at the mid of 100)", () => {
    const at = (price: string) => quoteSell({ SELL: { value: { quoteId: 'x', side: 'SELL', price, expiresAt: 1 }, at: 0 } });
    expect(checkOwnPosition(at('60'), ownership)).toBeUndefined();
    expect(checkOwnPosition(at('50'), ownership)).toMatchObject({ code: 'OWN_POSITION', details: { required: '0.06', own: '0.05' } });
  });

  it('is denied, never let through unchecked, when no price tells how much base it is', () => {
    expect(checkOwnPosition(quoteSell({}), ownership)).toMatchObject({
      code: 'OWN_POSITION',
      details: { strategy: 'grid', market: 'BTCUSD', asset: 'BTC' },
    });
    expect(checkOwnPosition(quoteSell({}), ownership)?.message).toMatch(/no price is known to tell how much BTC that is/);
  });
});
