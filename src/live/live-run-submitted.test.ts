/**
 * Orders the venue answers SUBMITTED (entered into the book later) are not in the OPEN orders poll,
 * yet count toward max_open_orders; those the poll does list count once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeRigJournals, liveRunRig } from '../../test/support/live-run-rig.js';

afterEach(closeRigJournals);

function setup() {
  return liveRunRig({ rules: { submitDelayMs: 10_000 }, config: { risk: { max_open_orders: 2 } }, refPrefix: 'lw' });
}

describe('LiveRun and orders not yet entered', () => {
  it('counts our SUBMITTED orders toward max_open_orders although the OPEN poll does not list them', async () => {
    const s = setup();
    await s.run.start([]);
    await s.tick(2);
    await s.run.engine.drain();
    expect(s.journal.intents({ kind: 'place-order' }).map((r) => r.status)).toEqual(['SUBMITTED', 'SUBMITTED']);
    await s.pushOpenOrders(); // lists none: both are still SUBMITTED
    await s.clock.advanceAsync(1_000, 500);
    await s.tick(1);
    await s.run.engine.drain();
    expect(s.run.view().decisions.at(-1)).toMatchObject({ kind: 'deny', reason: expect.objectContaining({ code: 'MAX_OPEN_ORDERS' }) });
    expect(s.sim.orders()).toHaveLength(2);
    await s.run.stop('test over');
  });

  it('counts an order once when the poll lists it OPEN before the journal has followed it from SUBMITTED', async () => {
    // no follow() cycle within the test: the journal keeps both orders SUBMITTED after the venue enters them
    const s = liveRunRig({
      rules: { submitDelayMs: 10_000 },
      config: { risk: { max_open_orders: 3 }, streams: { orders_ms: 600_000 } },
      refPrefix: 'lw',
    });
    await s.run.start([]);
    await s.tick(2);
    await s.run.engine.drain();
    await s.clock.advanceAsync(10_001, 500);
    expect(s.openAtVenue()).toHaveLength(2);
    expect(s.journal.intents({ kind: 'place-order' }).map((r) => r.status)).toEqual(['SUBMITTED', 'SUBMITTED']);
    await s.pushOpenOrders(); // lists both as OPEN
    await s.tick(1);
    await s.run.engine.drain();
    expect(s.run.view().decisions.at(-1)).toMatchObject({ kind: 'approve' });
    expect(s.sim.orders()).toHaveLength(3);
    await s.run.stop('test over');
  });
});
