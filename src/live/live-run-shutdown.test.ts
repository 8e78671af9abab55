import { afterEach, describe, expect, it } from 'vitest';
import { buyOnce, closeRigJournals, liveRunRig } from '../../test/support/live-run-rig.js';

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

describe('LiveRun shutdown: what the exit itself learns is in the summary', () => {
  it('a fill first read by the exit (its order filled, no fill stream or poll since) is counted in the summary, with its fee, as the journal has it', async () => {
    const s = liveRunRig({ strategy: buyOnce, refPrefix: 'ex' });
    await s.run.start([]);
    await s.tick();
    await s.run.engine.drain();
    // filled at the venue, but no fill stream and no poll has told the run yet
    expect(s.sim.executions()).toHaveLength(1);
    expect(s.journal.fills()).toHaveLength(0);
    const summary = await s.run.stop('SIGTERM received');
    const fills = s.journal.fills();
    expect(fills).toHaveLength(1);
    expect(summary.fills).toBe(fills.length);
    expect(summary.fees).toBe(fills[0]!.commission);
    expect(summary.ordersPlaced).toBe(1);
  });
});
