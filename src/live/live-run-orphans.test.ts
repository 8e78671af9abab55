import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../config/index.js';
import { Journal } from '../exec/index.js';
import { closeRigJournals, liveRunRig } from '../../test/support/live-run-rig.js';
import { FIRST_START_KEY } from './orphan-history.js';
import { orphanPolicy, UNKNOWN_STRATEGY } from './orphans.js';

afterEach(closeRigJournals);

describe('run.orphans policy', () => {
  it('is cancel by default, adopt when cancel_on_exit is false, and the configured value otherwise', () => {
    expect(orphanPolicy(parseConfig({}).run)).toBe('cancel');
    expect(orphanPolicy(parseConfig({ run: { cancel_on_exit: false } }).run)).toBe('adopt');
    expect(orphanPolicy(parseConfig({ run: { cancel_on_exit: false, orphans: 'cancel' } }).run)).toBe('cancel');
    expect(orphanPolicy(parseConfig({ run: { orphans: 'halt' } }).run)).toBe('halt');
    expect(orphanPolicy(parseConfig({ run: { orphans: 'adopt' } }).run)).toBe('adopt');
  });

  it('refuses an unknown value and an exit timeout under a second, naming the field', () => {
    expect(() => parseConfig({ run: { orphans: 'ignore' } })).toThrow(/run\.orphans/);
    expect(() => parseConfig({ run: { exit_timeout_ms: 10 } })).toThrow(/run\.exit_timeout_ms.*1000/);
    expect(parseConfig({}).run.exit_timeout_ms).toBe(30_000);
  });
});

/** A first run that leaves `n` bids resting (killed: never stopped), then a restart on `journal` with `run`. */
async function crashThenRestart(n: number, run: Record<string, unknown>, journal?: Journal) {
  const first = liveRunRig({ refPrefix: 'orph' });
  await first.run.start([]);
  await first.tick(n);
  await first.run.engine.drain();
  expect(first.openAtVenue()).toHaveLength(n);
  const second = liveRunRig({ refPrefix: 'orph', clock: first.clock, sim: first.sim, journal: journal ?? first.journal, config: { run } });
  const started = second.run.start([]);
  await second.clock.advanceAsync(2_000, 50);
  await started;
  return { first, second };
}

describe('orphans at start', () => {
  it('cancel: orders an earlier run left open are cancelled before the first new intent, and listed in the panel', async () => {
    const { second } = await crashThenRestart(3, {});
    expect(second.openAtVenue()).toHaveLength(0);
    expect(second.journal.intents({ kind: 'place-order' }).map((r) => r.status)).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED']);
    expect(second.run.view().orphans?.map((o) => o.action)).toEqual(['cancel', 'cancel', 'cancel']);
    await second.tick(3);
    await second.run.engine.drain();
    expect(second.openAtVenue()).toHaveLength(3); // only the new run's own bids rest
    const summary = await second.run.stop('test');
    expect(summary.orphans).toEqual({ cancel: 3 });
  });

  it('cancel: venue orders with our prefix that the journal lacks are journaled, then cancelled; new ids go on past them', async () => {
    const empty = new Journal(':memory:');
    const { second } = await crashThenRestart(2, {}, empty);
    const rows = empty.intents({ kind: 'place-order' });
    expect(rows.map((r) => [r.refId, r.strategy, r.status]).sort()).toEqual([
      ['orph-1', UNKNOWN_STRATEGY, 'CANCELLED'],
      ['orph-2', UNKNOWN_STRATEGY, 'CANCELLED'],
    ]);
    expect(second.openAtVenue()).toHaveLength(0);
    await second.tick(1);
    await second.run.engine.drain();
    expect(second.openAtVenue().map((o) => o.refId)).toEqual(['orph-3']);
    empty.close();
  });

  it('an order with our prefix that filled while the journal lacked it is journaled FILLED with its fill', async () => {
    const first = liveRunRig({ refPrefix: 'orph' });
    await first.venue.placeOrder({ refId: 'orph-7', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '100' });
    const empty = new Journal(':memory:');
    const second = liveRunRig({ refPrefix: 'orph', clock: first.clock, sim: first.sim, journal: empty });
    const started = second.run.start([]);
    await second.clock.advanceAsync(3_000, 50);
    await started;
    await second.clock.advanceAsync(3_000, 500);
    expect(empty.get('orph-7')).toMatchObject({ state: 'done', status: 'FILLED', strategy: UNKNOWN_STRATEGY });
    const venueFills = first.sim.executions().filter((x) => x.orderId === empty.get('orph-7')?.venueId);
    expect(venueFills.length).toBeGreaterThan(0);
    expect(empty.fills({ refId: 'orph-7' })).toHaveLength(venueFills.length);
    expect(second.run.view().orphans).toEqual([]); // closed already: journaled, nothing to cancel
    await second.run.stop('test');
    empty.close();
  });

  it('records of ours older than a day that the journal lost are journaled from its first start: a filled order with its fills, a settled quote execution; new ids go on past them', async () => {
    const first = liveRunRig({ refPrefix: 'orph' });
    const journal = first.journal;
    journal.setMeta(FIRST_START_KEY, String(first.clock.now()));
    await first.venue.placeOrder({ refId: 'orph-7', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '100' });
    const quote = (await first.venue.listQuotes('BTCUSD')).find((q) => q.side === 'BUY');
    const execution = await first.venue.executeQuote({ refId: 'orph-8', quoteId: quote?.quoteId ?? '', quoteAmount: '50.00' });
    first.clock.advance(3 * 86_400_000); // the last day's fills no longer name the order
    const second = liveRunRig({ refPrefix: 'orph', clock: first.clock, sim: first.sim, journal });
    const started = second.run.start([]);
    await second.clock.advanceAsync(3_000, 50);
    await started;
    const orderId = journal.get('orph-7')?.venueId;
    expect(journal.get('orph-7')).toMatchObject({ kind: 'place-order', state: 'done', status: 'FILLED', strategy: UNKNOWN_STRATEGY });
    const venueFills = first.sim.executions().filter((x) => x.orderId === orderId);
    expect(venueFills.length).toBeGreaterThan(0);
    expect(
      journal
        .fills({ refId: 'orph-7' })
        .map((f) => f.fillId)
        .sort(),
    ).toEqual(venueFills.map((x) => x.executionId).sort());
    const settled = first.sim.quoteExecutions().find((x) => x.id === execution.executionId);
    expect(settled?.status).toBe('SETTLED');
    expect(journal.get('orph-8')).toMatchObject({
      kind: 'execute-quote',
      state: 'done',
      status: 'SETTLED',
      venueId: execution.executionId,
      amountFilled: settled?.baseAmount.toFixed(),
      averagePrice: settled?.price.toFixed(),
    });
    expect(
      journal
        .strategyFills()
        .map((f) => f.refId)
        .sort(),
    ).toEqual([...venueFills.map(() => 'orph-7'), 'orph-8']);
    await second.tick(1);
    await second.run.engine.drain();
    expect(second.openAtVenue().map((o) => o.refId)).toEqual(['orph-9']);
    await second.run.stop('test');
  });

  it('adopt (the default without cancel_on_exit): the orders keep resting, count as open and are followed to their fills', async () => {
    const { second } = await crashThenRestart(2, { cancel_on_exit: false });
    expect(second.openAtVenue()).toHaveLength(2);
    expect(second.run.view().orphans?.map((o) => o.action)).toEqual(['adopt', 'adopt']);
    expect(second.run.kernel.openOrders.list().map((o) => o.strategy)).toEqual(['rest', 'rest']);
    const summary = await second.run.stop('test');
    expect(summary.orphans).toEqual({ adopt: 2 });
    expect(summary.openOrdersLeft).toBe(2);
  });

  it('halt: trading is halted with the orphans named, and the orders are left as they are', async () => {
    const { second } = await crashThenRestart(2, { orphans: 'halt' });
    expect(second.openAtVenue()).toHaveLength(2);
    expect(second.run.gate.killSwitch.tripped).toMatch(/2 orphan order\(s\) found at start \(run\.orphans: halt\): orph-1, orph-2/);
    await second.tick(1);
    await second.run.engine.drain();
    expect(second.openAtVenue()).toHaveLength(2);
    expect(second.run.engine.counters.denied).toBe(1);
  });
});
