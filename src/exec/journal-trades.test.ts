import { describe, expect, it } from 'vitest';
import { Rng } from '../core/index.js';
import { positionsFromFills, tradesFromFills, type StrategyFill } from './journal-trades.js';

let n = 0;
function fill(
  strategy: string,
  side: 'BUY' | 'SELL',
  amount: string,
  price: string,
  commission = '0',
  at = ++n * 1000,
  market = 'BTCUSD',
): StrategyFill {
  return { strategy, refId: `r-${n}`, market, side, amount, price, commission, commissionAsset: 'USD', at };
}

describe('round trips and positions from journal fills', () => {
  it('closes a round trip when the position is flat again, with fees inside the P&L and listed apart', () => {
    const { roundTrips, positions } = tradesFromFills([
      fill('a', 'BUY', '0.5', '100', '0.1'),
      fill('a', 'BUY', '0.5', '110', '0.1'),
      fill('a', 'SELL', '0.4', '120', '0.05'),
      fill('a', 'SELL', '0.6', '90', '0.05'),
    ]);
    // spent 50 + 55 + 0.2 = 105.2; received 48 - 0.05 + 54 - 0.05 = 101.9
    expect(roundTrips).toEqual([
      expect.objectContaining({
        strategy: 'a',
        market: 'BTCUSD',
        quantity: '1',
        open: '0',
        entryPrice: '105',
        exitPrice: '102',
        pnl: '-3.3',
        fees: '0.3',
        fills: 4,
      }),
    ]);
    expect(positions).toEqual([
      expect.objectContaining({ strategy: 'a', position: '0', costBasis: '0', realizedPnl: '-3.3', fees: '0.3', roundTrips: 1, wins: 0 }),
    ]);
    expect(positions[0]!.averageCost).toBeUndefined();
  });

  it('keeps strategies apart, lists an open round trip last with its realized part, and ignores sells of holdings it never bought', () => {
    const { roundTrips, positions } = tradesFromFills([
      fill('b', 'SELL', '1', '100'),
      fill('a', 'BUY', '2', '100', '2'),
      fill('b', 'BUY', '1', '100'),
      fill('b', 'SELL', '1.5', '130'),
      fill('a', 'SELL', '1', '150'),
    ]);
    expect(roundTrips.map((t) => [t.strategy, t.exitAt === undefined ? 'open' : 'closed', t.pnl])).toEqual([
      ['b', 'closed', '30'],
      // a: cost 202 for 2, half sold at 150: realized 150 - 101
      ['a', 'open', '49'],
    ]);
    expect(positions.find((p) => p.strategy === 'a')).toMatchObject({
      position: '1',
      averageCost: '101',
      costBasis: '101',
      realizedPnl: '49',
      roundTrips: 0,
    });
    expect(positions.find((p) => p.strategy === 'b')).toMatchObject({ position: '0', realizedPnl: '30', roundTrips: 1, wins: 1 });
  });

  it('counts a fee charged in the base asset at the fill price, and holds that much less (as the account does)', () => {
    const { positions } = tradesFromFills([{ ...fill('c', 'BUY', '1', '200'), commission: '0.001', commissionAsset: 'BTC' }]);
    expect(positions[0]).toMatchObject({ position: '0.999', fees: '0.2', costBasis: '200' });
  });

  it('gives the same positions without writing out the round trips (wins, losses, partial and oversized sells, base fees)', () => {
    const rng = new Rng(9);
    const fills: StrategyFill[] = [];
    for (let i = 0; i < 400; i++) {
      const strategy = rng.next() < 0.5 ? 'a' : 'b';
      const f = fill(
        strategy,
        rng.next() < 0.5 ? 'BUY' : 'SELL',
        (rng.next() * 2).toFixed(3),
        (90 + rng.next() * 20).toFixed(2),
        (rng.next() * 0.2).toFixed(4),
        undefined,
        rng.next() < 0.5 ? 'BTCUSD' : 'ETHUSD',
      );
      fills.push(i % 7 === 0 ? { ...f, commission: '0.0001', commissionAsset: f.market.slice(0, 3) } : f);
    }
    const { positions, roundTrips } = tradesFromFills(fills);
    expect(roundTrips.filter((t) => t.exitAt !== undefined).length).toBeGreaterThan(3);
    expect(positions.some((p) => p.wins > 0 && p.wins < p.roundTrips)).toBe(true);
    expect(positionsFromFills(fills)).toEqual(positions);
  });
});
