import { describe, expect, it } from 'vitest';
import { D } from '../src/core/index.js';
import { executionOfDecimals, type PointExecution } from '../src/fills/point/orders.js';
import { RoundTripTracker } from './round-trips.js';

let n = 0;
function fill(side: 'BUY' | 'SELL', amount: string, price: string, quote: string, fee: string, at: number): PointExecution {
  n++;
  return executionOfDecimals({
    executionId: `f${n}`,
    orderId: `o${n}`,
    refId: `r${n}`,
    market: 'BTCUSD',
    side,
    amount: new D(amount),
    price: new D(price),
    commission: new D(fee),
    commissionAsset: 'USD',
    quoteAmount: new D(quote),
    at,
    kind: 'order',
  });
}

describe('round trips from fills', () => {
  it("prices a trip of one buy and one sell at the fills' own prices, rounded down to 8 decimals", () => {
    const t = new RoundTripTracker();
    t.add(fill('BUY', '0.33733481', '29308.31', '9896.1', '9.9', 1));
    t.add(fill('SELL', '0.33733481', '29466.123456789', '9930.5', '9.94', 2));
    expect(t.trades).toEqual([
      {
        market: 'BTCUSD',
        side: 'long',
        entryAt: 1,
        exitAt: 2,
        quantity: '0.33733481',
        entryPrice: '29308.31',
        exitPrice: '29466.12345678',
        pnl: '34.4',
        fees: '19.84',
      },
    ]);
    expect(t.totalFees).toBe('19.84');
    expect(t.openSince).toBeUndefined();
  });

  it('weights the prices of a trip built and closed in parts by amount (hand-computed)', () => {
    const t = new RoundTripTracker();
    // buys: 0.1 at 100 and 0.2 at 101: (10 + 20.2) / 0.3 = 100.666… → 100.66666666
    t.add(fill('BUY', '0.1', '100', '10.01', '0.01', 10));
    t.add(fill('BUY', '0.2', '101', '20.22', '0.02', 11));
    // sells: 0.05 at 110, then 0.25 at 111.11: (5.5 + 27.7775) / 0.3 = 110.925
    t.add(fill('SELL', '0.05', '110', '5.49', '0.01', 12));
    expect(t.openSince).toBe(10);
    t.add(fill('SELL', '0.25', '111.11', '27.75', '0.03', 13));
    // a second trip of one buy and two sells: 0.5 at 200; 0.2 at 210 and 0.3 at 220 → (42 + 66) / 0.5 = 216
    t.add(fill('BUY', '0.5', '200', '100.1', '0.1', 20));
    t.add(fill('SELL', '0.2', '210', '41.95', '0.05', 21));
    t.add(fill('SELL', '0.3', '220', '65.9', '0.1', 22));
    expect(t.trades).toEqual([
      {
        market: 'BTCUSD',
        side: 'long',
        entryAt: 10,
        exitAt: 13,
        quantity: '0.3',
        entryPrice: '100.66666666',
        exitPrice: '110.925',
        pnl: '3.01',
        fees: '0.07',
      },
      {
        market: 'BTCUSD',
        side: 'long',
        entryAt: 20,
        exitAt: 22,
        quantity: '0.5',
        entryPrice: '200',
        exitPrice: '216',
        pnl: '7.75',
        fees: '0.25',
      },
    ]);
    expect(t.totalFees).toBe('0.32');
  });

  it('counts a sale with nothing open only in the fees, caps a sale at the position, and reports a position still open', () => {
    const t = new RoundTripTracker();
    t.add(fill('SELL', '1', '50', '49.95', '0.05', 1));
    t.add(fill('BUY', '0.4', '60', '24.03', '0.03', 2));
    // sells 0.6, of which 0.4 closes the trip at 70
    t.add(fill('SELL', '0.6', '70', '41.95', '0.05', 3));
    t.add(fill('BUY', '0.1', '80', '8.01', '0.01', 4));
    expect(t.trades).toEqual([
      {
        market: 'BTCUSD',
        side: 'long',
        entryAt: 2,
        exitAt: 3,
        quantity: '0.4',
        entryPrice: '60',
        exitPrice: '70',
        pnl: '17.92',
        fees: '0.08',
      },
    ]);
    expect(t.totalFees).toBe('0.14');
    expect(t.openSince).toBe(4);
    expect(t.fills.map((f) => f.side)).toEqual(['sell', 'buy', 'sell', 'buy']);
  });
});
