import { describe, expect, it } from 'vitest';
import { TestClock } from '../clock/index.js';
import { InputError, type ExecReport, type Intent } from '../core/index.js';
import { ScriptedVenue } from '../../test/support/scripted-venue.js';
import { CRASH_STEPS, crashHookFrom, type CrashStep } from './crash-point.js';
import type { ExecContext } from './exec-context.js';
import { FillTracker } from './fill-tracker.js';
import { MemoryJournal } from './memory-journal.js';
import { OrderExecutor } from './order-executor.js';

describe('crashHookFrom', () => {
  it('gives no hook when the variable is unset or empty, so normal runs pay nothing', () => {
    expect(crashHookFrom(undefined)).toBeUndefined();
    expect(crashHookFrom('')).toBeUndefined();
  });

  it('kills only at the named step, each time it is reached', () => {
    const kills: string[] = [];
    const hook = crashHookFrom('fill', () => kills.push('killed'));
    for (const step of CRASH_STEPS) hook?.(step);
    expect(kills).toEqual(['killed']);
  });

  it('refuses a value that names no step, naming the variable and the steps', () => {
    expect(() => crashHookFrom('order-snet')).toThrow(InputError);
    expect(() => crashHookFrom('order-snet')).toThrow(
      /TRADELOOP_TEST_CRASH_AT: "order-snet" is not a crash step: use one of intent-journaled, order-sent/,
    );
  });
});

describe('the executors call the crash hook of their context', () => {
  function setup() {
    const clock = new TestClock(1_700_000_000_000);
    const venue = new ScriptedVenue(() => clock.now());
    const journal = new MemoryJournal();
    const reports: ExecReport[] = [];
    // what the journal holds at each step is what a restart would find had the process died there
    const seen: Array<{ step: CrashStep; state: string | undefined; reports: number }> = [];
    const ctx: ExecContext = {
      venue,
      journal,
      clock,
      emit: (r) => reports.push(r),
      crash: (step) => seen.push({ step, state: journal.get(step === 'cancel' ? 'c-1' : 'o-1')?.state, reports: reports.length }),
    };
    return { clock, venue, journal, reports, seen, orders: new OrderExecutor(ctx), fills: new FillTracker(ctx, clock.now() - 60_000) };
  }
  const buy: Intent = {
    kind: 'place-order',
    intentId: 'o-1',
    strategy: 't',
    market: 'BTCUSD',
    side: 'BUY',
    type: 'LIMIT',
    baseAmount: '1',
    price: '100',
  };

  it('at every step of placing, filling and cancelling an order, in order, with the journal as the step describes', async () => {
    const s = setup();
    await s.orders.place(buy, { kind: 'approve', intent: buy, at: s.clock.now() });
    const orderId = s.journal.get('o-1')?.venueId ?? '';
    s.venue.fill(orderId, '0.4', '100');
    await s.fills.poll();
    const cancel: Intent = { kind: 'cancel-order', intentId: 'c-1', strategy: 't', orderRefId: 'o-1' };
    s.journal.recordDecision({ kind: 'approve', intent: cancel, at: s.clock.now() });
    await s.orders.cancel(cancel);
    expect(s.seen).toEqual([
      { step: 'intent-journaled', state: 'sent', reports: 0 },
      { step: 'order-sent', state: 'sent', reports: 0 },
      { step: 'order-response', state: 'open', reports: 1 },
      { step: 'fill', state: 'open', reports: 1 },
      { step: 'cancel', state: 'sent', reports: 2 },
    ]);
    expect(s.journal.fills({ refId: 'o-1' })).toHaveLength(1);
  });

  it('runs unchanged without a hook', async () => {
    const s = setup();
    const journal = new MemoryJournal();
    const orders = new OrderExecutor({ venue: s.venue, journal, clock: s.clock, emit: (r) => s.reports.push(r) });
    await orders.place(buy, { kind: 'approve', intent: buy, at: s.clock.now() });
    expect(journal.get('o-1')?.state).toBe('open');
  });
});
