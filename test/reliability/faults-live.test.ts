import { afterEach, describe, expect, it } from 'vitest';
import { D } from '../../src/core/index.js';
import { startReliabilityHarness, type ReliabilityHarness } from '../support/reliability-harness.js';
import { churnStrategy } from '../support/reliability-strategies.js';

let h: ReliabilityHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Most attempts of `operation` on the wire at the same moment. */
function maxConcurrent(h: ReliabilityHarness, operation: string): number {
  const edges = h.responses
    .filter((r) => r.operation === operation)
    .flatMap((r) => [
      { at: r.atMs, d: 1 },
      { at: r.atMs + r.durationMs, d: -1 },
    ]);
  edges.sort((a, b) => a.at - b.at || a.d - b.d);
  let now = 0;
  let max = 0;
  for (const e of edges) max = Math.max(max, (now += e.d));
  return max;
}

const statuses = (h: ReliabilityHarness, status: number, fromMs = 0): number =>
  h.responses.filter((r) => r.status === status && r.atMs >= fromMs).length;

describe('fault cases through the whole live pipeline (sandbox, client, streams, engine, executors, journal)', () => {
  it(
    'slow responses longer than the poll interval: polls never pile up, prices keep coming, orders go on',
    { timeout: 60_000 },
    async () => {
      h = await startReliabilityHarness({
        strategies: () => [{ definition: churnStrategy }],
        sandbox: { faults: { rules: [{ mode: 'latency', target: 'ListPrices', latencyMs: 3_500 }] } },
      });
      const events = h.run.engine.counters.events;
      await h.step(90_000, 500);
      const polls = h.responses.filter((r) => r.operation === 'ListPrices');
      expect(maxConcurrent(h, 'ListPrices')).toBe(1);
      expect(polls.length).toBeLessThanOrEqual(Math.ceil(90_000 / 3_500) + 2);
      expect(polls.every((r) => r.durationMs >= 3_500)).toBe(true);
      expect(h.run.engine.counters.events).toBeGreaterThan(events + 10);
      expect(h.sandbox.sim.orders().filter((o) => o.refId?.startsWith('rel-')).length).toBeGreaterThan(5);
    },
  );

  it('token expiry mid-run: the token is renewed ahead of expiry, so not one request meets a 401', { timeout: 60_000 }, async () => {
    h = await startReliabilityHarness({ strategies: () => [{ definition: churnStrategy }], sandbox: { tokenLifetimeSec: 120 } });
    await h.step(15 * 60_000, 1_000);
    expect(h.api.tokenRequests()).toBeGreaterThanOrEqual(7);
    expect(h.api.tokenRequests()).toBeLessThanOrEqual(10);
    expect(statuses(h, 401)).toBe(0);
  });

  it('a burst of 401s (every token revoked at once) costs exactly one token request, and nothing fails', { timeout: 60_000 }, async () => {
    h = await startReliabilityHarness({
      strategies: () => [{ definition: churnStrategy }],
      config: {
        streams: {
          prices_ms: 1_000,
          ticker_ms: 1_000,
          book_ms: 1_000,
          quotes_ms: 1_000,
          balances_ms: 1_000,
          orders_ms: 1_000,
          warmup_points: 5,
        },
      },
    });
    await h.step(10_000, 1_000);
    for (let burst = 0; burst < 3; burst++) {
      const tokens = h.api.tokenRequests();
      const from = h.clock.now();
      h.sandbox.revokeTokens();
      await h.step(10_000, 1_000);
      expect(statuses(h, 401, from), `burst ${burst}`).toBeGreaterThanOrEqual(2);
      expect(h.api.tokenRequests() - tokens, `burst ${burst}`).toBe(1);
    }
    const failed = h.responses.filter((r) => r.status === 401);
    expect(h.journal.active().filter((r) => r.state === 'unresolved')).toEqual([]);
    expect(failed.length).toBeGreaterThanOrEqual(6);
  });

  it(
    '409 for our ref_id naming a different order halts trading with a clear alert; nothing more is placed',
    { timeout: 60_000 },
    async () => {
      h = await startReliabilityHarness({ strategies: () => [{ definition: churnStrategy }] });
      // another bot (or a replaced journal) uses rel-20 with other fields while we run (one there before
      // the start would be an orphan: journaled and cancelled at start, and our ids would go past it)
      const price = new D(h.sandbox.sim.mid('BTCUSD')).times('0.9').toDecimalPlaces(2).toFixed();
      await h.api.createOrder(h.profileId, {
        ref_id: 'rel-20',
        market: 'BTCUSD',
        side: 'BUY',
        type: 'LIMIT',
        base_amount: '0.0123',
        price,
      });
      await h.step(30_000, 1_000);
      const run = h.run;
      expect(run.gate.killSwitch.tripped).toMatch(/ref_id rel-20 already names a different record/);
      expect(run.view().halted).toBeDefined();
      expect(h.logs()).toMatch(/"alert":"REF_ID_CONFLICT".*ALERT: trading halted: ref_id rel-20/);
      const foreign = h.sandbox.sim.orders().filter((o) => o.refId === 'rel-20');
      expect(foreign).toHaveLength(1);
      expect(foreign[0]!.baseAmount?.toFixed()).toBe('0.0123');
      expect(h.journal.get('rel-20')).toMatchObject({ state: 'done', status: 'REJECTED', venueId: null });
      const placedBefore = h.sandbox.sim.orders().length;
      await h.step(30_000, 1_000);
      expect(h.sandbox.sim.orders().length).toBe(placedBefore);
      expect(run.gate.stats().HALTED ?? 0).toBeGreaterThan(10);
    },
  );
});
