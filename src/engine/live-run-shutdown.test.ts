import { afterEach, describe, expect, it } from 'vitest';
import { closeRigJournals, liveRunRig } from '../../test/support/live-run-rig.js';

afterEach(closeRigJournals);

async function runWithRestingBids(cancelOnExit: boolean) {
  const r = liveRunRig({ config: { run: { cancel_on_exit: cancelOnExit } }, refPrefix: 'sd' });
  await r.run.start([]);
  await r.tick(2);
  await r.run.engine.drain();
  await r.clock.advanceAsync(1_000, 1_000);
  // the open-orders stream has seen both orders open since their last journal update
  await r.pushOpenOrders();
  await r.clock.advanceAsync(2_000, 1_000);
  expect(r.openAtVenue()).toHaveLength(2);
  return r;
}

describe('LiveRun shutdown', () => {
  it('with cancel_on_exit cancels the resting orders and journals them cancelled, though the stream last saw them open', async () => {
    const s = await runWithRestingBids(true);
    const summary = await s.run.stop('SIGTERM received');
    expect(s.sim.orders().map((o) => o.status)).toEqual(['CANCELLED', 'CANCELLED']);
    expect(s.journal.intents({ kind: 'place-order' }).map((r) => [r.state, r.status])).toEqual([
      ['done', 'CANCELLED'],
      ['done', 'CANCELLED'],
    ]);
    expect(summary.openOrdersLeft).toBe(0);
  });

  it('without cancel_on_exit leaves them resting and journaled open', async () => {
    const s = await runWithRestingBids(false);
    const summary = await s.run.stop('SIGTERM received');
    expect(s.sim.orders().map((o) => o.status)).toEqual(['OPEN', 'OPEN']);
    expect(s.journal.intents({ kind: 'place-order' }).map((r) => [r.state, r.status])).toEqual([
      ['open', 'OPEN'],
      ['open', 'OPEN'],
    ]);
    expect(summary.openOrdersLeft).toBe(2);
  });
});
