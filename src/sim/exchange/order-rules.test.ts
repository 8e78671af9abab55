import { describe, expect, it } from 'vitest';
import { D } from '../../core/decimal.js';
import { InputError } from '../../core/errors.js';
import { instrumentOf } from '../../platform/instruments.js';
import type { OrderType, Side, TimeInForce } from '../../core/messages.js';
import { platformInstrument } from '../../platform/instruments.js';
import { SimError } from '../errors.js';
import {
  ORDER_TYPES,
  capViolation,
  isViolation,
  orderViolation,
  ruleOrder,
  type OrderRequest,
  type OrderViolation,
  type RuledOrder,
} from '../../platform/order-rules.js';
import { parseOrder, throwViolation } from './order-rules.js';

const btc = platformInstrument('BTCUSD');
const SIDES: readonly Side[] = ['BUY', 'SELL'];
const TIFS: readonly TimeInForce[] = ['GTC', 'FOK', 'IOC', 'GTT'];
const ALLOWED: Readonly<Record<OrderType, readonly TimeInForce[]>> = {
  LIMIT: ['GTC', 'FOK', 'IOC', 'GTT'],
  POST_ONLY_LIMIT: ['GTC', 'FOK', 'IOC', 'GTT'],
  MARKET: ['IOC'],
  STOP_MARKET: ['GTC', 'GTT'],
  STOP_LIMIT: ['GTC', 'GTT'],
};
const DEFAULT_TIF: Readonly<Record<OrderType, TimeInForce>> = {
  LIMIT: 'GTC',
  POST_ONLY_LIMIT: 'GTC',
  MARKET: 'IOC',
  STOP_MARKET: 'GTC',
  STOP_LIMIT: 'GTC',
};

/** A well-formed request of a type and side, by the platform's matrix. */
function wellFormed(type: OrderType, side: Side, tif?: TimeInForce): OrderRequest {
  return {
    type,
    side,
    ...(type === 'MARKET' && side === 'BUY' ? { quoteAmount: '100.00' } : { baseAmount: '0.01' }),
    ...(type !== 'MARKET' && type !== 'STOP_MARKET' && { price: '60000.25' }),
    ...((type === 'STOP_MARKET' || type === 'STOP_LIMIT') && { stopPrice: '59000' }),
    ...(tif !== undefined && { timeInForce: tif }),
    ...(tif === 'GTT' && { expiresAt: 1_767_225_600_000 }),
  };
}

function violation(req: OrderRequest, i = btc): OrderViolation {
  const r = ruleOrder(req, i);
  if (!isViolation(r)) throw new Error(`expected a violation for ${JSON.stringify(req)}`);
  return r;
}

function ruled(req: OrderRequest, i = btc): RuledOrder {
  const r = ruleOrder(req, i);
  if (isViolation(r)) throw new Error(`unexpected violation ${r.message}`);
  return r;
}

describe('order rules: type × side × time in force', () => {
  for (const type of ORDER_TYPES) {
    for (const side of SIDES) {
      for (const tif of [...TIFS, undefined]) {
        const stopBuy = (type === 'STOP_MARKET' || type === 'STOP_LIMIT') && side === 'BUY';
        const tifOk = tif === undefined || ALLOWED[type].includes(tif);
        it(`${type} ${side} ${tif ?? '(no time in force)'}: ${stopBuy || !tifOk ? 'refused' : 'accepted'}`, () => {
          const r = ruleOrder(wellFormed(type, side, tif), btc);
          // the time in force is checked first, as the sandbox always has
          if (stopBuy && tifOk)
            expect(r).toMatchObject({ field: 'side', kind: 'invalid', reason: `${type} orders are sell-only (stop loss): use SELL` });
          else if (!tifOk)
            expect(r).toMatchObject({
              field: 'time_in_force',
              kind: 'invalid',
              reason: `"${tif}" is not valid for ${type} orders: use one of ${ALLOWED[type].join(', ')}`,
            });
          else expect(r).toMatchObject({ type, side, timeInForce: tif ?? DEFAULT_TIF[type] });
        });
      }
    }
  }

  it('refuses an unknown or missing side and type, naming the field and the choices', () => {
    expect(violation({ ...wellFormed('LIMIT', 'BUY'), side: 'HOLD' })).toMatchObject({
      field: 'side',
      message: 'side: "HOLD" is not valid: use one of BUY, SELL',
    });
    expect(violation({ ...wellFormed('LIMIT', 'BUY'), type: undefined })).toMatchObject({
      field: 'type',
      message: `type: required: use one of ${ORDER_TYPES.join(', ')}`,
    });
  });
});

describe('order rules: required and forbidden fields per type and side', () => {
  const FIELDS = { baseAmount: 'base_amount', quoteAmount: 'quote_amount', price: 'price', stopPrice: 'stop_price' } as const;
  const VALUE = { baseAmount: '0.01', quoteAmount: '100.00', price: '60000.25', stopPrice: '59000' } as const;
  for (const type of ORDER_TYPES) {
    for (const side of SIDES) {
      if ((type === 'STOP_MARKET' || type === 'STOP_LIMIT') && side === 'BUY') continue;
      const req = wellFormed(type, side);
      for (const key of Object.keys(FIELDS) as (keyof typeof FIELDS)[]) {
        const present = req[key] !== undefined;
        it(`${type} ${side}: ${FIELDS[key]} is ${present ? 'required' : 'forbidden'}`, () => {
          const changed = present ? { ...req, [key]: undefined } : { ...req, [key]: VALUE[key] };
          const v = violation(changed);
          expect(v).toMatchObject({ field: FIELDS[key], kind: 'invalid' });
          expect(v.reason).toMatch(present ? /^required for / : /^not allowed on .*: remove it$/);
          expect(v.message.startsWith(`${FIELDS[key]}: `)).toBe(true);
        });
      }
    }
  }

  it('treats an empty string or null as absent', () => {
    expect(violation({ ...wellFormed('LIMIT', 'BUY'), price: '' })).toMatchObject({
      field: 'price',
      reason: 'required for LIMIT orders (the limit price)',
    });
    expect(ruled({ ...wellFormed('LIMIT', 'BUY'), stopPrice: null, quoteAmount: '' })).toMatchObject({ type: 'LIMIT' });
  });
});

describe('order rules: decimals, tick and precision', () => {
  it('refuses non-decimal, signed, exponent and non-positive values as invalid, naming the field', () => {
    for (const bad of ['-1', '1e3', '1.', 'abc', '0', '0.000', 5]) {
      expect(violation({ ...wellFormed('LIMIT', 'BUY'), baseAmount: bad })).toMatchObject({ field: 'base_amount', kind: 'invalid' });
    }
    expect(violation({ ...wellFormed('LIMIT', 'BUY'), price: '0' })).toMatchObject({ field: 'price', reason: 'must be greater than zero' });
  });

  it('refuses the BTCUSD limit buy at 59999.877: the tick is 0.01', () => {
    expect(violation({ ...wellFormed('LIMIT', 'BUY'), price: '59999.877' })).toEqual({
      field: 'price',
      kind: 'precision',
      reason: '59999.877 has more precision than allowed: use at most 2 decimal places (a multiple of 0.01)',
      message: 'price: 59999.877 has more precision than allowed: use at most 2 decimal places (a multiple of 0.01)',
      details: { value: '59999.877', max_decimals: 2, tick: '0.01' },
    });
  });

  it('checks the stop price against the tick too, and a tick that is not a power of ten', () => {
    expect(violation({ ...wellFormed('STOP_LIMIT', 'SELL'), stopPrice: '59000.001' })).toMatchObject({
      field: 'stop_price',
      kind: 'precision',
    });
    const quarter = instrumentOf({ market: 'BTCUSD', tickRate: '0.25' });
    expect(violation({ ...wellFormed('LIMIT', 'BUY'), price: '60000.10' }, quarter)).toMatchObject({
      field: 'price',
      kind: 'precision',
      details: { tick: '0.25' },
    });
    expect(ruled({ ...wellFormed('LIMIT', 'BUY'), price: '60000.75' }, quarter).price?.toFixed()).toBe('60000.75');
  });

  it('refuses more than 8 base decimals and 2 quote decimals; trailing zeros do not count', () => {
    expect(violation({ ...wellFormed('LIMIT', 'SELL'), baseAmount: '0.123456789' })).toMatchObject({
      field: 'base_amount',
      kind: 'precision',
      details: { max_decimals: 8 },
    });
    expect(violation({ type: 'MARKET', side: 'BUY', quoteAmount: '10.001' })).toMatchObject({
      field: 'quote_amount',
      kind: 'precision',
      details: { max_decimals: 2 },
    });
    expect(ruled({ ...wellFormed('LIMIT', 'SELL'), baseAmount: '0.1234567800', price: '60000.2500' }).baseAmount?.toFixed()).toBe(
      '0.12345678',
    );
  });

  it('uses the instrument it is given: MATICUSD prices have 4 decimals', () => {
    const matic = platformInstrument('MATICUSD');
    expect(ruled({ type: 'LIMIT', side: 'BUY', baseAmount: '10', price: '0.7012' }, matic).price?.toFixed()).toBe('0.7012');
    expect(violation({ type: 'LIMIT', side: 'BUY', baseAmount: '10', price: '0.70125' }, matic)).toMatchObject({
      field: 'price',
      kind: 'precision',
      details: { max_decimals: 4 },
    });
  });
});

describe('order rules: expiry, size and caps', () => {
  it('needs an expiry for GTT only, as epoch ms (number or digit string)', () => {
    expect(violation({ ...wellFormed('LIMIT', 'BUY'), timeInForce: 'GTT' })).toMatchObject({ field: 'expiration_date', kind: 'invalid' });
    expect(violation({ ...wellFormed('LIMIT', 'BUY'), expiresAt: 1_767_225_600_000 })).toMatchObject({
      field: 'expiration_date',
      reason: 'only for time_in_force GTT: remove it or use GTT',
    });
    expect(ruled({ ...wellFormed('LIMIT', 'BUY'), timeInForce: 'GTT', expiresAt: '1767225600000' }).expiresAt).toBe(1_767_225_600_000);
    expect(violation({ ...wellFormed('LIMIT', 'BUY'), timeInForce: 'GTT', expiresAt: 'tomorrow' })).toMatchObject({
      field: 'expiration_date',
    });
  });

  it('refuses a base amount outside the instrument size limits, when it has them', () => {
    const sized = { ...btc, minBaseAmount: new D('0.001'), maxBaseAmount: new D('10') };
    expect(violation({ ...wellFormed('LIMIT', 'BUY'), baseAmount: '0.0001' }, sized)).toMatchObject({
      field: 'base_amount',
      kind: 'size',
      details: { min: '0.001' },
    });
    expect(violation({ ...wellFormed('LIMIT', 'BUY'), baseAmount: '10.5' }, sized)).toMatchObject({
      field: 'base_amount',
      kind: 'size',
      details: { max: '10' },
    });
    expect(ruled({ ...wellFormed('LIMIT', 'BUY'), baseAmount: '0.0001' }).baseAmount?.toFixed()).toBe('0.0001');
  });

  it('caps MARKET orders at 500,000 USD and BTCUSD limits at 1,500,000 USD', () => {
    expect(orderViolation({ type: 'MARKET', side: 'BUY', quoteAmount: '500000.00' }, btc)).toBeUndefined();
    expect(orderViolation({ type: 'MARKET', side: 'BUY', quoteAmount: '500000.01' }, btc)).toMatchObject({
      field: 'quote_amount',
      kind: 'cap',
      details: { market: 'BTCUSD', order_type: 'MARKET', order_notional_value: '500000.01', max_notional_value: '500000' },
    });
    expect(orderViolation({ type: 'LIMIT', side: 'BUY', baseAmount: '25', price: '60000' }, btc)).toBeUndefined();
    expect(orderViolation({ type: 'LIMIT', side: 'BUY', baseAmount: '25.01', price: '60000' }, btc)).toMatchObject({
      field: 'base_amount',
      kind: 'cap',
    });
    expect(
      orderViolation({ type: 'LIMIT', side: 'BUY', baseAmount: '20', price: '60000' }, platformInstrument('BTCEUR'), {
        quotePerUsd: new D('0.92'),
      }),
    ).toMatchObject({ kind: 'cap', details: { max_notional_value: '1000000' } });
  });

  it('values a MARKET sell at the reference price and a STOP_MARKET at its stop price; without a price or rate it cannot tell', () => {
    const sell = ruled({ type: 'MARKET', side: 'SELL', baseAmount: '9' });
    expect(capViolation(sell, btc, {})).toBeUndefined();
    expect(capViolation(sell, btc, { reference: new D(60000) })).toMatchObject({
      kind: 'cap',
      details: { order_notional_value: '540000.00' },
    });
    expect(orderViolation({ type: 'STOP_MARKET', side: 'SELL', baseAmount: '9', stopPrice: '60000' }, btc)).toMatchObject({ kind: 'cap' });
    expect(orderViolation({ type: 'LIMIT', side: 'BUY', baseAmount: '20', price: '60000' }, platformInstrument('BTCEUR'))).toBeUndefined();
  });

  it('takes the reference as a number as market data gives it, worth what the Decimal made from it is', () => {
    const sell = ruled({ type: 'MARKET', side: 'SELL', baseAmount: '8.33333334' });
    // 8.33333334 BTC is worth 500,000.0004 USD at 60,000, and 499,999.99999 at 59,999.99995
    expect(capViolation(sell, btc, { reference: 60_000 })).toMatchObject({ kind: 'cap', details: { order_notional_value: '500000.00' } });
    expect(capViolation(sell, btc, { reference: 59_999.99995 })).toBeUndefined();
    for (const mid of [60_000, 59_999.99995, 59_999.99995 + 1e-11, 0.1 + 0.2]) {
      expect(capViolation(sell, btc, { reference: mid })).toEqual(capViolation(sell, btc, { reference: new D(mid) }));
    }
    expect(capViolation(sell, btc, { reference: Number.NaN })).toBeUndefined();
  });

  it('checks an order it did not rule (the sandbox spec) by its Decimals', () => {
    const spec = {
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      baseAmount: new D('25.01'),
      quoteAmount: undefined,
      price: new D('60000'),
      stopPrice: undefined,
      expiresAt: undefined,
    } as const;
    expect(capViolation(spec, btc, {})).toMatchObject({
      field: 'base_amount',
      kind: 'cap',
      details: { order_notional_value: '1500600.00', max_notional_value: '1500000' },
    });
    expect(capViolation({ ...spec, baseAmount: new D('25') }, btc, {})).toBeUndefined();
  });
});

describe('ruled orders', () => {
  it('keep their amounts exact and make each Decimal once, when read', () => {
    const o = ruled({ type: 'STOP_LIMIT', side: 'SELL', baseAmount: '0.50000000', price: '59000.25', stopPrice: '59500' });
    expect(o.exact).toMatchObject({
      baseAmount: { units: 50000000n, scale: 8 },
      price: { units: 5900025n, scale: 2 },
      stopPrice: { units: 59500n, scale: 0 },
      quoteAmount: undefined,
    });
    expect([o.baseAmount!.toFixed(), o.price!.toFixed(), o.stopPrice!.toFixed(), o.quoteAmount]).toEqual([
      '0.5',
      '59000.25',
      '59500',
      undefined,
    ]);
    expect(o.baseAmount).toBe(o.baseAmount);
    expect(Object.isFrozen(o)).toBe(true);
  });

  it('read trailing zeros beyond the decimals as the value they are, and refuse any other digit there', () => {
    expect(ruled({ type: 'MARKET', side: 'BUY', quoteAmount: '10.5000' }).quoteAmount!.toFixed()).toBe('10.5');
    expect(violation({ type: 'MARKET', side: 'BUY', quoteAmount: '10.5001' })).toMatchObject({ field: 'quote_amount', kind: 'precision' });
    expect(violation({ type: 'MARKET', side: 'BUY', quoteAmount: '0.000' })).toMatchObject({
      field: 'quote_amount',
      kind: 'invalid',
      reason: 'must be greater than zero',
    });
    expect(violation({ type: 'MARKET', side: 'BUY', quoteAmount: '0.001' })).toMatchObject({ field: 'quote_amount', kind: 'precision' });
  });
});

describe('throwViolation', () => {
  it('raises precision as exceed-precision, caps as notional-value-too-large, the rest as InputError naming the field', () => {
    const raise = (v: OrderViolation | undefined): unknown => {
      try {
        throwViolation(v!);
      } catch (e) {
        return e;
      }
    };
    const precision = raise(orderViolation({ ...wellFormed('LIMIT', 'BUY'), price: '59999.877' }, btc));
    expect(precision).toBeInstanceOf(SimError);
    expect(precision).toMatchObject({
      kind: 'exceed-precision',
      message: 'price: 59999.877 has more precision than allowed: use at most 2 decimal places (a multiple of 0.01)',
      meta: { field: 'price' },
    });
    expect(raise(orderViolation({ type: 'MARKET', side: 'BUY', quoteAmount: '600000' }, btc))).toMatchObject({
      kind: 'notional-value-too-large',
    });
    const invalid = raise(orderViolation({ ...wellFormed('LIMIT', 'BUY'), side: 'HOLD' }, btc));
    expect(invalid).toBeInstanceOf(InputError);
    expect(invalid).toMatchObject({ field: 'side', message: 'side: "HOLD" is not valid: use one of BUY, SELL' });
  });
});

describe('parseOrder (the sandbox exchange)', () => {
  const base = { profileId: 'p', side: 'BUY', market: 'BTCUSD', type: 'LIMIT', baseAmount: '0.01', price: '60000.25', timeInForce: 'GTT' };

  it('takes expiration_date only as a digit string, as the platform types it', () => {
    expect(parseOrder({ ...base, expirationDate: '1767225600000' }).expiresAt).toBe(1_767_225_600_000);
    expect(() => parseOrder({ ...base, expirationDate: 1_767_225_600_000 })).toThrow(
      /^expiration_date: expected epoch milliseconds as a digit string/,
    );
  });

  it('refuses the market first, then by the order rules', () => {
    expect(() => parseOrder({ ...base, market: 'DOGEUSD', price: '1.001' })).toThrow(/^market: "DOGEUSD" is not a trading market/);
    expect(() => parseOrder({ ...base, timeInForce: 'GTC', price: '59999.877' })).toThrow(SimError);
  });
});

describe('order rules: the verdict shared between the risk gate and the venue', () => {
  it('gives the same terms the same (frozen) verdict, and rules changed terms or another instrument afresh', () => {
    const terms = { side: 'BUY', type: 'LIMIT', baseAmount: '0.5', price: '30000.01' };
    const first = ruleOrder(terms, btc);
    expect(ruleOrder({ ...terms }, btc)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // the same object with a field changed is ruled again (the terms were copied, not referenced)
    const mutable: { side: string; type: string; baseAmount: string; price: string } = { ...terms, price: '30000.02' };
    expect(isViolation(ruleOrder(mutable, btc))).toBe(false);
    mutable.baseAmount = '0.123456789';
    expect(ruleOrder(mutable, btc)).toMatchObject({ field: 'base_amount', kind: 'precision' });
    // another instrument: MATICUSD takes 4 price decimals, BTCUSD 2
    const matic = platformInstrument('MATICUSD');
    expect(isViolation(ruleOrder({ side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '0.1234' }, matic))).toBe(false);
    expect(ruleOrder({ side: 'BUY', type: 'LIMIT', baseAmount: '1', price: '0.1234' }, btc)).toMatchObject({
      field: 'price',
      kind: 'precision',
    });
  });

  it('never reuses a verdict on a value compared by reference (raw JSON objects)', () => {
    const odd: { side: string; type: string; baseAmount: unknown; price: string } = {
      side: 'BUY',
      type: 'LIMIT',
      baseAmount: { n: 1 },
      price: '1',
    };
    const a = ruleOrder(odd, btc) as OrderViolation;
    (odd.baseAmount as { n: number }).n = 2;
    const b = ruleOrder(odd, btc) as OrderViolation;
    expect(a.reason).toContain('{"n":1}');
    expect(b.reason).toContain('{"n":2}');
  });
});
