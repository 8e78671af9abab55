import { describe, expect, it } from 'vitest';
import type { ExecReport } from '../core/index.js';
import { RecentReports } from './run-view.js';

const filled = (refId: string, at: number): ExecReport => ({
  kind: 'filled',
  refId,
  orderId: `o-${refId}`,
  fillId: `f-${at}`,
  market: 'BTCUSD',
  side: 'BUY',
  amount: '0.1',
  price: '100',
  commission: '0.01',
  commissionAsset: 'USD',
  at,
});

describe('RecentReports', () => {
  it("lists an order's accepted before its fills and cancel even when it arrives after them", () => {
    const r = new RecentReports(10);
    r.push(filled('a', 1));
    r.push(filled('b', 2));
    r.push({ kind: 'cancelled', refId: 'a', orderId: 'o-a', at: 3 });
    r.push({ kind: 'accepted', refId: 'a', orderId: 'o-a', at: 4 });
    r.push({ kind: 'accepted', refId: 'c', orderId: 'o-c', at: 5 });
    expect(r.list().map((x) => `${x.kind} ${x.refId}`)).toEqual(['accepted a', 'filled a', 'filled b', 'cancelled a', 'accepted c']);
  });

  it('keeps only the newest items up to its capacity', () => {
    const r = new RecentReports(2);
    for (let i = 0; i < 5; i++) r.push(filled(`x${i}`, i));
    expect(r.list().map((x) => x.refId)).toEqual(['x3', 'x4']);
  });
});
