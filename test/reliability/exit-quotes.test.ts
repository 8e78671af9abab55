/**
 * The exit follows quote executions in flight to their end, as it follows orders: through the whole
 * live pipeline (the sandbox over HTTP, the client, RestVenue, the journal) on a test clock, with the
 * sandbox's fault injection standing for a venue outage. A quote execution the venue made, whose
 * answer was lost and whose every read fails when the run is stopped, is read back during the exit
 * once the venue answers again, and journaled SETTLED with its balances' effect; one the venue never
 * answers for within `run.exit_timeout_ms` is named in the summary and the exit still ends on time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/live/index.js';
import { startLiveHarness, type LiveHarness } from '../support/live-harness.js';
import quoteOnce from './fixtures/quote-once.js';

/**
 * The venue's outage for quote executions: the execution is made but its answer lost (the client's
 * retries of it then meet 503s), and every read of it fails.
 */
const OUTAGE = [
  { mode: 'commit-drop', target: 'CreateQuoteExecution', count: 1 },
  { mode: 'error5xx', target: 'CreateQuoteExecution' },
  { mode: 'error5xx', target: 'GetQuoteExecution' },
  { mode: 'error5xx', target: 'ListQuoteExecutions' },
] as const;

let h: LiveHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function quoteInFlight(): Promise<LiveHarness> {
  const harness = await startLiveHarness(
    quoteOnce,
    {},
    {
      streams: {
        prices_ms: 1_000,
        ticker_ms: 5_000,
        book_ms: 5_000,
        quotes_ms: 1_000,
        balances_ms: 1_000,
        orders_ms: 1_000,
        warmup_points: 3,
      },
      risk: { stale_after_ms: 60_000 },
      run: { exit_timeout_ms: 20_000 },
    },
  );
  for (const rule of OUTAGE) harness.sandbox.faults.add(rule);
  // until the executor has given up on it: its outcome unknown, left to the follow-ups (which fail too)
  const unresolved = (): boolean => harness.journal.intents({ kind: 'execute-quote' })[0]?.state === 'unresolved';
  for (let s = 0; s < 120 && !unresolved(); s++) await harness.step(1_000, 1_000);
  await harness.step(3_000, 1_000);
  return harness;
}

/** Stops the run, stepping the clock meanwhile; `during(ms)` is called after each second of the exit. */
async function stopStepping(harness: LiveHarness, during: (elapsedMs: number) => void = () => undefined): Promise<RunSummary> {
  let summary: RunSummary | undefined;
  const stopping = harness.run.stop('test over').then((s) => (summary = s));
  for (let ms = 0; ms < 120_000 && summary === undefined; ms += 1_000) {
    await harness.step(1_000, 1_000);
    during(ms + 1_000);
  }
  await stopping;
  return summary as RunSummary;
}

describe('the exit follows quote executions in flight to settlement', () => {
  it(
    'journals SETTLED a quote execution the venue settled whose answers were lost, once the venue answers during the exit',
    { timeout: 120_000 },
    async () => {
      h = await quoteInFlight();
      const harness = h;
      const [row] = harness.journal.intents({ kind: 'execute-quote' });
      // made at the venue (and settled there), its outcome unknown to the journal
      expect(row?.state).toBe('unresolved');
      expect(row?.status).toBeNull();
      const [venueSide] = harness.sandbox.sim.quoteExecutions().filter((x) => x.refId === row?.refId);
      expect(venueSide?.status).toBe('SETTLED');

      const started = harness.clock.now();
      // the venue answers again 6 s into the exit
      const summary = await stopStepping(harness, (ms) => {
        if (ms === 6_000) harness.sandbox.faults.clear();
      });
      expect(harness.clock.now() - started).toBeLessThan(20_000);
      const after = harness.journal.get(row?.refId ?? '');
      expect(after).toMatchObject({ state: 'done', status: 'SETTLED', venueId: venueSide?.id });
      expect(summary.settlingQuoteExecutions).toBeUndefined();
      expect(summary.unresolved).toBe(0);
      // the journal's account holds the execution's effect: the BTC bought, the USD paid
      const btc = summary.positions?.find((p) => p.asset === 'BTC');
      expect(btc?.amount).toBe(venueSide?.baseAmount.toFixed());
    },
  );

  it(
    'names a quote execution the venue does not answer for within run.exit_timeout_ms, and ends the exit on time',
    { timeout: 120_000 },
    async () => {
      h = await quoteInFlight();
      const [row] = h.journal.intents({ kind: 'execute-quote' });
      const started = h.clock.now();
      const summary = await stopStepping(h);
      const took = h.clock.now() - started;
      expect(took).toBeGreaterThanOrEqual(20_000);
      expect(took).toBeLessThan(40_000);
      expect(summary.settlingQuoteExecutions).toBe(1);
      expect(summary.leftSettling).toEqual([`${row?.refId} (quote execution ?, BUY BTCUSD, unresolved)`]);
    },
  );
});
