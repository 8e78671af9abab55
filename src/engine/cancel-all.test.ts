import { describe, expect, it } from 'vitest';
import { TestClock } from '../clock/index.js';
import { D } from '../core/index.js';
import type { JournalIntentRow } from '../exec/index.js';
import type { Venue, VenueOrder } from '../venue/index.js';
import { CANCEL_CONCURRENCY, cancelOrders } from './cancel-all.js';

/** A venue of `n` open orders whose cancels answer after `latencyMs` on the test clock. */
function slowVenue(clock: TestClock, n: number, latencyMs: number) {
  const status = new Map(Array.from({ length: n }, (_, i) => [`o-${i}`, 'OPEN']));
  const seen = { inFlight: 0, max: 0 };
  const order = (id: string): VenueOrder => ({
    orderId: id,
    refId: `r-${id}`,
    market: 'BTCUSD',
    side: 'BUY',
    type: 'LIMIT',
    status: status.get(id) ?? 'OPEN',
    amountFilled: new D(0),
  });
  const venue = {
    async cancelOrder(id: string) {
      seen.inFlight++;
      seen.max = Math.max(seen.max, seen.inFlight);
      await clock.sleep(latencyMs);
      seen.inFlight--;
      status.set(id, 'CANCELLED');
    },
    async getOrder(id: string) {
      return order(id);
    },
  } as unknown as Venue;
  const rows = [...status.keys()].map((id) => ({ refId: `r-${id}`, venueId: id }) as JournalIntentRow);
  return { venue, rows, seen, status };
}

describe('cancelOrders', () => {
  it(`runs at most ${CANCEL_CONCURRENCY} cancels at once and journals each close from its read`, async () => {
    const clock = new TestClock(0);
    const { venue, rows, seen } = slowVenue(clock, 40, 1_000);
    const applied: string[] = [];
    const done = cancelOrders({ venue, clock, orders: { applyOrder: (ref, o) => applied.push(`${ref}:${o.status}`) } }, rows, 30_000);
    await clock.advanceAsync(5_000, 100);
    const r = await done;
    expect(seen.max).toBe(CANCEL_CONCURRENCY);
    expect(r.open).toEqual([]);
    expect(r.closed).toHaveLength(40);
    expect(applied.filter((a) => a.endsWith(':CANCELLED'))).toHaveLength(40);
    expect(clock.now()).toBeGreaterThanOrEqual(3_000); // 40 orders, 16 at a time, 1 s each
  });

  it('names the orders still open at the deadline and stops there', async () => {
    const clock = new TestClock(0);
    const { venue, rows } = slowVenue(clock, 2, 60_000); // cancels that answer only after a minute
    let finished = -1;
    const done = cancelOrders({ venue, clock, orders: { applyOrder: () => undefined } }, rows, 2_000).then(
      (r) => ((finished = clock.now()), r),
    );
    await clock.advanceAsync(70_000, 500);
    const r = await done;
    expect(r.open).toEqual(['r-o-0', 'r-o-1']);
    expect(finished).toBe(2_000); // a cancel still hanging at the deadline does not hold the exit
  });
});
