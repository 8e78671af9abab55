import { describe, expect, it } from 'vitest';
import { D, type ExecReport } from '../../src/core/index.js';
import { FillTracker, Journal } from '../../src/exec/index.js';
import type { Venue, VenueFill } from '../../src/venue/index.js';

const fill: VenueFill = {
  fillId: 'x-1',
  orderId: 'o-1',
  market: 'BTCUSD',
  side: 'BUY',
  amount: new D('0.001'),
  price: new D('60000'),
  commission: new D('0.06'),
  commissionAsset: 'USD',
  at: 1_000,
};

describe('fills that arrive before their order is journaled', () => {
  it('are held, then recorded exactly once when the order is found by ref_id (a push stream sends each fill once)', () => {
    const journal = new Journal(':memory:');
    const reports: ExecReport[] = [];
    const tracker = new FillTracker({ venue: {} as Venue, journal, clock: { now: () => 2_000 }, emit: (r) => reports.push(r) }, 0);
    const intent = {
      kind: 'place-order',
      intentId: 'r-1',
      strategy: 's',
      market: 'BTCUSD',
      side: 'BUY',
      type: 'LIMIT',
      baseAmount: '0.001',
      price: '60000',
      timeInForce: 'IOC',
    } as const;
    journal.recordDecision({ kind: 'approve', intent, at: 500 }, { at: 500, request: {} });
    expect(tracker.ingest([fill])).toBe(0);
    expect(tracker.heldCount).toBe(1);
    journal.update('r-1', 1_500, 'done', { venueId: 'o-1', status: 'FILLED' }, { type: 'lookup' });
    // found by ref_id, the order executor accepts it: the kernel passes its ref_id on to the tracker
    tracker.confirm('o-1', 'r-1');
    expect(tracker.ingest([])).toBe(1);
    expect(tracker.ingest([fill])).toBe(0);
    expect(tracker.heldCount).toBe(0);
    expect(journal.fills().map((f) => f.fillId)).toEqual(['x-1']);
    expect(reports.filter((r) => r.kind === 'filled')).toHaveLength(1);
    journal.close();
  });
});
