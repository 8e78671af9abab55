/**
 * A run whose journal failed, as the operations code shows it: /metrics sets
 * `tradeloop_journal_failed` to 1, the dashboard's status carries the failure, and the webhook
 * sends one `journal-failed` notification (before run-stop) naming it and the exit code.
 */
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/index.js';
import { OpsState, RunMetrics, RunNotifications, WATCH_MS, type NotifyEvent } from '../../src/ops/index.js';
import type { OpsRun } from '../../src/ops/index.js';
import { parsePrometheusText } from './prometheus-text.js';
import { stubRun } from './stub-run.js';

const REASON = 'a write to the journal /bots/a/journal.sqlite failed (SQLITE_FULL: database or disk is full, in recordDecision)';

function failingRun(clock: TestClock): { run: OpsRun; fail: () => void } {
  const stub = stubRun(clock);
  let failure: string | undefined;
  const run: OpsRun = { ...stub.run, view: () => ({ ...stub.run.view(), ...(failure !== undefined && { journalFailure: failure }) }) };
  return { run, fail: () => (failure = REASON) };
}

describe('a run whose journal failed', () => {
  it("shows in /metrics and in the dashboard's status", async () => {
    const clock = new TestClock(1_000);
    const { run, fail } = failingRun(clock);
    const metrics = new RunMetrics({ processMetrics: false });
    const state = new OpsState(run);
    metrics.attach(run, state, {});
    expect(parsePrometheusText(await metrics.text()).get('tradeloop_journal_failed')).toBe(0);
    expect(state.status().journalFailure).toBeUndefined();
    fail();
    expect(parsePrometheusText(await metrics.text()).get('tradeloop_journal_failed')).toBe(1);
    expect(state.status().journalFailure).toBe(REASON);
    state.close();
    metrics.close();
  });

  it('sends one journal-failed notification, before run-stop', () => {
    const clock = new TestClock(1_000);
    const { run, fail } = failingRun(clock);
    const sent: { event: NotifyEvent; data: Record<string, unknown> }[] = [];
    const n = new RunNotifications(run, { notify: (event, data) => sent.push({ event, data }) });
    clock.advance(WATCH_MS);
    fail();
    clock.advance(WATCH_MS);
    clock.advance(WATCH_MS);
    n.runStopped({ reason: 'journal failed' });
    n.close();
    expect(sent.map((s) => s.event)).toEqual(['journal-failed', 'run-stop']);
    expect(sent[0]?.data).toEqual({ reason: REASON, exitCode: 5, at: 1_000 + 2 * WATCH_MS });
  });

  it('a run stopped before the next look still sends it first', () => {
    const clock = new TestClock(1_000);
    const { run, fail } = failingRun(clock);
    const sent: NotifyEvent[] = [];
    const n = new RunNotifications(run, { notify: (event) => sent.push(event) });
    fail();
    n.runStopped({});
    n.close();
    expect(sent).toEqual(['journal-failed', 'run-stop']);
  });
});
