import { afterEach, describe, expect, it } from 'vitest';
import { SimVenue, type PlaceOrderRequest, type VenueOrder } from '../venue/index.js';
import { closeRigJournals, liveRunRig } from '../../test/support/live-run-rig.js';

afterEach(closeRigJournals);

/** The simulated venue, except that new orders can be held in flight until the test lets them go. */
class HoldingVenue extends SimVenue {
  held: Promise<void> | undefined;
  /** Cancel requests to refuse as if the connection dropped. */
  failCancels = 0;
  override async cancelOrder(orderId: string): Promise<void> {
    if (this.failCancels > 0) {
      this.failCancels--;
      throw new Error('socket hang up');
    }
    return super.cancelOrder(orderId);
  }
  override async placeOrder(req: PlaceOrderRequest): Promise<VenueOrder> {
    if (this.held) await this.held;
    return super.placeOrder(req);
  }
}

async function setup() {
  return liveRunRig({ venue: (sim) => new HoldingVenue(sim), config: { risk: { daily_loss_limit: '5000' } }, refPrefix: 'ks' });
}

describe('LiveRun kill switch', () => {
  it('on a daily loss over the limit cancels every open order, also one in flight when it trips, and approves nothing more', async () => {
    const s = await setup();
    await s.run.start([]);
    await s.tick(3);
    await s.run.engine.drain();
    expect(s.openAtVenue()).toHaveLength(3);
    await s.clock.advanceAsync(5_000, 1_000); // equity marked: 100000 USD
    let release = (): void => undefined;
    s.venue.held = new Promise<void>((r) => (release = r));
    await s.tick(1); // a fourth bid, approved and sent, its answer held
    await s.clock.advanceAsync(1_000, 1_000);
    expect(s.journal.intents({ state: 'sent' })).toHaveLength(1);

    await s.tick(0, '90000'); // the balances now say 10000 USD were lost
    await s.clock.advanceAsync(5_000, 1_000);
    expect(s.run.view().halted).toMatch(/daily loss 10000.00 exceeds 5000/);
    expect(s.openAtVenue()).toHaveLength(0);

    s.venue.held = undefined;
    release(); // the fourth order now reaches the venue, after the switch tripped
    await s.run.engine.drain();
    await s.clock.advanceAsync(3_000, 1_000);
    expect(s.sim.orders()).toHaveLength(4);
    expect(s.openAtVenue()).toEqual([]);
    expect(s.journal.intents({ kind: 'place-order' }).map((r) => r.status)).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED', 'CANCELLED']);

    const approved = s.run.engine.counters.approved;
    await s.tick(2);
    await s.run.engine.drain();
    expect(s.run.engine.counters.approved).toBe(approved);
    expect(s.run.view().decisions.slice(-2)).toEqual([
      expect.objectContaining({ kind: 'deny', reason: expect.objectContaining({ code: 'HALTED' }) }),
      expect.objectContaining({ kind: 'deny', reason: expect.objectContaining({ code: 'HALTED' }) }),
    ]);
    expect(s.sim.orders()).toHaveLength(4);
    const summary = await s.run.stop('test over');
    expect(summary).toMatchObject({ openOrdersLeft: 0, halted: expect.stringMatching(/daily loss/) });
  });

  it('asks again for a cancel whose request failed, while the switch stays tripped', async () => {
    const s = await setup();
    await s.run.start([]);
    await s.tick(2);
    await s.run.engine.drain();
    await s.clock.advanceAsync(5_000, 1_000);
    s.venue.failCancels = 2;
    await s.tick(0, '90000');
    await s.clock.advanceAsync(7_000, 1_000); // the switch trips; the first two cancel requests fail
    expect(s.run.view().halted).toBeDefined();
    expect(s.venue.failCancels).toBe(0);
    expect(s.openAtVenue()).toEqual([]); // asked again on a following cycle
    await s.run.stop('test over');
  });

  it("keeps the day's opening equity in the journal: a restart the same UTC day trips on the day's whole loss, one the next day starts afresh", async () => {
    const config = { risk: { daily_loss_limit: '5000' } };
    const first = liveRunRig({ config, refPrefix: 'ks' });
    await first.run.start([]);
    await first.tick(0, '100000');
    await first.clock.advanceAsync(5_000, 1_000); // marked: the day opens at 100000
    await first.tick(0, '95100');
    await first.clock.advanceAsync(5_000, 1_000); // 4,900 lost: under the limit
    expect(first.run.view().halted).toBeUndefined();
    await first.run.stop('restart');

    const again = liveRunRig({ config, refPrefix: 'ks', journal: first.journal, clock: first.clock, sim: first.sim });
    await again.run.start([]);
    await again.tick(0, '90200');
    await again.clock.advanceAsync(5_000, 1_000);
    expect(again.run.view().halted).toBe('daily loss 9800.00 exceeds 5000');
    await again.run.stop('test over');

    // a new UTC day opens at its first mark
    first.clock.advance(86_400_000);
    const tomorrow = liveRunRig({ config, refPrefix: 'ks', journal: first.journal, clock: first.clock, sim: first.sim });
    await tomorrow.run.start([]);
    await tomorrow.tick(0, '90200');
    await tomorrow.clock.advanceAsync(5_000, 1_000);
    await tomorrow.tick(0, '86000');
    await tomorrow.clock.advanceAsync(5_000, 1_000);
    expect(tomorrow.run.view().halted).toBeUndefined();
    expect(tomorrow.run.gate.killSwitch.marks()).toMatchObject({ dayOpenEquity: '90200' });
    await tomorrow.run.stop('test over');
  });
});
