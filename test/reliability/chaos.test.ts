import { describe, expect, it } from 'vitest';
import { runChaos } from './chaos-run.js';

describe('chaos (the npm test share of `npm run chaos`)', () => {
  it(
    '400+ intents under 2,000+ injected faults and 401 bursts: every invariant of the reliability issue holds',
    { timeout: 120_000 },
    async () => {
      const r = await runChaos({ intents: 400, faults: 2_000, seed: 2, revokeEveryMs: 60_000 });
      expect(r.violations).toEqual([]);
      expect(r.intents).toBeGreaterThanOrEqual(400);
      expect(r.faultsInjected).toBeGreaterThanOrEqual(2_000);
      for (const mode of ['latency', 'error5xx', 'error429', 'drop', 'truncate', 'malformed', 'wrong-shape', 'commit-drop', 'commit-5xx'])
        expect(r.faultsByMode[mode], mode).toBeGreaterThan(0);
      // about a fifth of the attempts get a malformed, wrongly shaped or cut body
      const bad = ['malformed', 'wrong-shape', 'truncate'].reduce((n, m) => n + (r.faultsByMode[m] ?? 0), 0);
      expect(bad / r.requests).toBeGreaterThan(0.15);
      expect(r.figures.venueOrders).toBeGreaterThan(100);
      expect(r.figures.venueQuoteExecutions).toBeGreaterThan(20);
      expect(r.figures.venueTransfers).toBeGreaterThan(20);
      expect(r.figures.venueFills).toBeGreaterThan(20);
      expect(r.tokenBursts).toBeGreaterThanOrEqual(3);
      expect(r.burst401s).toBeGreaterThan(r.tokenBursts);
      expect(r.resolvedAfterMs).toBeLessThanOrEqual(120_000);
    },
  );
});
