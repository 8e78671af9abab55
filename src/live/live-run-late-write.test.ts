/**
 * A write whose answer is lost and that reaches the venue late: within the executors' lateWriteMs the
 * intent stays unresolved; later than that it was closed as NOT_PLACED, and the run adopts the order
 * when it shows among the open orders. A restart inside the window waits for it before trading.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { TestClock } from '../clock/index.js';
import { LATE_WRITE_MS, type Journal } from '../exec/index.js';
import type { SimPlatform } from '../sim/sim.js';
import { SimVenue, type PlaceOrderRequest, type VenueOrder } from '../venue/index.js';
import { closeRigJournals, liveRunRig } from '../../test/support/live-run-rig.js';

afterEach(closeRigJournals);

/** The simulated venue, except that the next order request can be lost on the way back and land later. */
class LateVenue extends SimVenue {
  loseNext = false;
  pending: PlaceOrderRequest | undefined;
  override async placeOrder(req: PlaceOrderRequest): Promise<VenueOrder> {
    if (this.loseNext) {
      this.loseNext = false;
      this.pending = req;
      throw new Error('headers timeout');
    }
    return super.placeOrder(req);
  }
  /** The venue processes the request it had received. */
  async land(): Promise<VenueOrder> {
    const req = this.pending!;
    this.pending = undefined;
    return super.placeOrder(req);
  }
}

function setup(journal?: Journal, clock?: TestClock, sim?: SimPlatform) {
  return liveRunRig({
    venue: (s) => new LateVenue(s),
    refPrefix: 'lw',
    ...(journal && { journal }),
    ...(clock && { clock }),
    ...(sim && { sim }),
  });
}

describe('LiveRun and writes that land late', () => {
  it('an order landing after its intent was closed as NOT_PLACED is adopted from the open orders and followed', async () => {
    const s = setup();
    await s.run.start([]);
    s.venue.loseNext = true;
    await s.tick(1);
    await s.run.engine.drain();
    const [row] = s.journal.intents({ kind: 'place-order' });
    expect(row).toMatchObject({ state: 'unresolved' }); // inside the window: not concluded
    await s.clock.advanceAsync(LATE_WRITE_MS + 1_000, 500); // the follow-up cycles close it
    expect(s.journal.get(row!.refId)).toMatchObject({ state: 'done', status: 'NOT_PLACED' });
    const landed = await s.venue.land(); // later than anyone waits
    await s.pushOpenOrders();
    await s.clock.advanceAsync(1_000, 500);
    expect(s.journal.get(row!.refId)).toMatchObject({ state: 'open', venueId: landed.orderId, status: 'OPEN' });
    // tracked, so cancel_on_exit (on by default) reaches it: nothing is left resting at the venue
    const summary = await s.run.stop('test over');
    expect(summary.openOrdersLeft).toBe(0);
    expect(s.sim.orders().map((o) => o.status)).toEqual(['CANCELLED']);
    expect(s.journal.get(row!.refId)).toMatchObject({ state: 'done', status: 'CANCELLED' });
  });

  it('a restart while a sent order may still land waits for its window, then trades with the landed order journaled', async () => {
    const first = setup();
    await first.run.start([]);
    first.venue.loseNext = true;
    await first.tick(1);
    await first.run.engine.drain();
    // the runner dies here, with the intent unresolved, and restarts 1 s later
    await first.clock.advanceAsync(1_000, 1_000);
    const s = setup(first.journal, first.clock, first.sim);
    s.venue.pending = first.venue.pending;
    let trading = false;
    const started = s.run.start([]).then((r) => ((trading = true), r));
    await s.clock.advanceAsync(1_000, 250);
    expect(trading).toBe(false); // the reconciler does not conclude while the write may still land
    await s.venue.land(); // the venue processes the request 2 s after it was sent
    await s.clock.advanceAsync(LATE_WRITE_MS, 250);
    const rec = await started;
    expect(rec.agreed).toBe(true);
    // journaled as landed, then cancelled at once: an order a crashed run left open is an orphan (run.orphans: cancel)
    expect(s.journal.intents({ kind: 'place-order' }).map((r) => [r.state, r.status])).toEqual([['done', 'CANCELLED']]);
    expect(s.journal.events(s.journal.intents({ kind: 'place-order' })[0]!.refId).map((e) => e.type)).toContain('lookup');
    expect(s.sim.orders()).toHaveLength(1);
    await s.run.stop('test over');
  });
});
