import { afterEach, describe, expect, it } from 'vitest';
import { SimVenue, VenueUnknownOutcomeError, type VenueOrder } from '../venue/index.js';
import { closeRigJournals, liveRunRig } from '../../test/support/live-run-rig.js';

afterEach(closeRigJournals);

/** The simulated venue with cancels and reads that fail as the test asks, counting cancels in flight. */
class FlakyVenue extends SimVenue {
  /** Cancels refused before they run (a 503 from the gateway): the next N. */
  failCancels = 0;
  /** Every cancel is refused before it runs. */
  refuseAllCancels = false;
  /** Reads of an order answered with a malformed body: the next N. */
  malformedReads = 0;
  /** Cancels take this long (on the test clock) to answer. */
  cancelDelay: ((ms: number) => Promise<void>) | undefined;
  inFlight = 0;
  maxInFlight = 0;
  cancels = 0;

  override async cancelOrder(orderId: string): Promise<void> {
    this.cancels++;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await this.cancelDelay?.(1_000);
      if (this.refuseAllCancels || this.failCancels-- > 0) throw new VenueUnknownOutcomeError('CancelOrder: 503 Service Unavailable');
      return await super.cancelOrder(orderId);
    } finally {
      this.inFlight--;
    }
  }

  override async getOrder(orderId: string): Promise<VenueOrder> {
    if (this.malformedReads-- > 0) throw new VenueUnknownOutcomeError('GetOrder: the response body is not valid JSON');
    return super.getOrder(orderId);
  }
}

async function restingBids(n: number, run: Record<string, unknown> = {}) {
  const r = liveRunRig({ venue: (sim) => new FlakyVenue(sim), config: { run: { cancel_on_exit: true, ...run } }, refPrefix: 'ex' });
  await r.run.start([]);
  await r.tick(n);
  await r.run.engine.drain();
  expect(r.openAtVenue()).toHaveLength(n);
  return r;
}

/** Stops the run while the test clock moves on (exit cancels retry on the clock). */
async function stopAdvancing(r: Awaited<ReturnType<typeof restingBids>>, ms: number) {
  const stopped = r.run.stop('SIGINT received');
  await r.clock.advanceAsync(ms, 50);
  return stopped;
}

describe('LiveRun exit cancels (run.cancel_on_exit)', () => {
  it('sends a cancel again when a read shows the order still open after a 503, until every order is closed', async () => {
    const r = await restingBids(6);
    r.venue.failCancels = 5; // five of the six first cancels refused before they ran
    const summary = await stopAdvancing(r, 5_000);
    expect(r.openAtVenue()).toHaveLength(0);
    expect(r.journal.intents({ kind: 'place-order' }).map((x) => x.status)).toEqual(Array(6).fill('CANCELLED'));
    expect(summary.openOrdersLeft).toBe(0);
    expect(summary.leftOpen).toEqual([]);
    expect(r.venue.cancels).toBe(11);
  });

  it('journals CANCELLED when the cancel ran but the read after it got a malformed body', async () => {
    const r = await restingBids(2);
    r.venue.malformedReads = 2;
    const summary = await stopAdvancing(r, 3_000);
    expect(r.journal.intents({ kind: 'place-order' }).map((x) => [x.state, x.status])).toEqual([
      ['done', 'CANCELLED'],
      ['done', 'CANCELLED'],
    ]);
    expect(summary.openOrdersLeft).toBe(0);
  });

  it('names the orders still open once run.exit_timeout_ms has passed', async () => {
    const r = await restingBids(2, { exit_timeout_ms: 4_000 });
    r.venue.refuseAllCancels = true;
    const started = r.clock.now();
    const summary = await stopAdvancing(r, 6_000);
    expect(r.openAtVenue()).toHaveLength(2);
    expect(summary.openOrdersLeft).toBe(2);
    expect(summary.leftOpen).toHaveLength(2);
    for (const line of summary.leftOpen ?? []) expect(line).toMatch(/^ex-\d+ \(order \S+, BUY BTCUSD @ [\d.]+, OPEN\)$/);
    // the cancels were tried again, a few times a second at first, and stopped at the deadline
    expect(r.venue.cancels).toBeGreaterThan(6);
    expect(summary.durationMs).toBeGreaterThan(0);
    expect(r.clock.now() - started).toBeGreaterThanOrEqual(4_000);
  });

  it('sends the exit cancels in parallel, not one at a time', async () => {
    const r = await restingBids(6);
    r.venue.cancelDelay = (ms) => r.clock.sleep(ms);
    const started = r.clock.now();
    let doneAt = 0;
    const stopped = r.run.stop('SIGINT received').then((s) => ((doneAt = r.clock.now()), s));
    await r.clock.advanceAsync(8_000, 100);
    const summary = await stopped;
    expect(r.venue.maxInFlight).toBe(6);
    expect(summary.openOrdersLeft).toBe(0);
    expect(doneAt - started).toBeLessThan(2_000); // one cancel's latency, not six
  });

  it('leaves the orders resting without cancel_on_exit', async () => {
    const r = await restingBids(2, { cancel_on_exit: false });
    const summary = await stopAdvancing(r, 1_000);
    expect(r.venue.cancels).toBe(0);
    expect(summary.openOrdersLeft).toBe(2);
  });
});
