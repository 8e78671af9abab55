import type { FaultRule } from '../../src/sandbox/index.js';
import { startReliabilityHarness } from '../support/reliability-harness.js';
import { checkInvariants, type InvariantReport } from '../support/reliability-invariants.js';
import { churnStrategy, quoteStrategy, transferStrategy } from '../support/reliability-strategies.js';

export interface ChaosOptions {
  /** Stop placing once this many intents were made … */
  readonly intents: number;
  /** … and this many faults injected. */
  readonly faults: number;
  readonly seed: number;
  /** Revoke every token (a 401 burst) this often, simulated ms. */
  readonly revokeEveryMs: number;
  /** Safety cap on simulated time. */
  readonly maxSimMs?: number;
}

export interface ChaosReport extends InvariantReport {
  readonly intents: number;
  readonly approved: number;
  readonly faultsInjected: number;
  readonly faultsByMode: Readonly<Record<string, number>>;
  readonly requests: number;
  readonly simulatedSeconds: number;
  readonly wallSeconds: number;
  readonly tokenBursts: number;
  /** Token requests caused by each 401 burst (each must be exactly 1). */
  readonly tokenRequestsPerBurst: readonly number[];
  readonly burst401s: number;
  readonly unhandledRejections: number;
  /** Simulated ms after faults stopped until nothing was unresolved. */
  readonly resolvedAfterMs: number;
}

const WRITES = ['CreateOrder', 'CancelOrder', 'CreateQuoteExecution', 'CreateInternalTransfer'];

/**
 * Faults on every operation (before and after the operation ran), heavier on writes. With `badBodies`
 * (the default), about a fifth of the answers that arrive are malformed, of the wrong shape or cut
 * short; without, the lighter mix of the earlier runs.
 */
export function chaosRules(badBodies = true): FaultRule[] {
  const [truncate, malformed, wrongShape] = badBodies ? [0.08, 0.09, 0.08] : [0.03, 0.02, 0.02];
  const rules: FaultRule[] = [
    { mode: 'latency', rate: 0.2, latencyMs: 1_500 },
    { mode: 'error5xx', rate: 0.05 },
    { mode: 'error429', rate: 0.015 },
    { mode: 'drop', rate: 0.03 },
    { mode: 'truncate', rate: truncate },
    { mode: 'malformed', rate: malformed },
    { mode: 'wrong-shape', rate: wrongShape },
  ];
  for (const target of WRITES) rules.push({ mode: 'commit-drop', target, rate: 0.08 }, { mode: 'commit-5xx', target, rate: 0.05 });
  return rules;
}

/**
 * The chaos run: three strategies (orders with cancels and fills, quote executions, transfers)
 * through the whole live pipeline while the sandbox injects faults on every operation and every
 * token is revoked now and then; then the faults stop and, two simulated minutes later, the
 * invariants of the reliability issue are checked against the sandbox's truth.
 */
export async function runChaos(o: ChaosOptions): Promise<ChaosReport> {
  let unhandled = 0;
  const onUnhandled = (): void => void unhandled++;
  process.on('unhandledRejection', onUnhandled);
  const wallStart = performance.now();
  const h = await startReliabilityHarness({
    strategies: ({ profileId, otherProfileId }) => [
      { definition: churnStrategy },
      { definition: quoteStrategy, params: { every: 3 } },
      { definition: transferStrategy, params: { every: 4, from: profileId, to: otherProfileId } },
    ],
    sandbox: { seed: o.seed, tokenLifetimeSec: 30 * 86_400, faults: { seed: o.seed, retryAfterSec: 1, rules: chaosRules() } },
    refPrefix: 'chaos',
  });
  try {
    const start = h.clock.now();
    const perBurst: number[] = [];
    let burst401s = 0;
    let lastRevoke = { at: start, tokens: h.api.tokenRequests() };
    const maxSim = o.maxSimMs ?? 6 * 3_600_000;
    h.sandbox.revokeTokens();
    while ((h.run.engine.counters.intents < o.intents || h.sandbox.faults.log.total < o.faults) && h.clock.now() - start < maxSim) {
      await h.step(5_000, 500);
      if (h.clock.now() - lastRevoke.at >= o.revokeEveryMs) {
        perBurst.push(h.api.tokenRequests() - lastRevoke.tokens);
        burst401s += h.responses.filter((r) => r.status === 401 && r.atMs >= lastRevoke.at).length;
        h.sandbox.revokeTokens();
        lastRevoke = { at: h.clock.now(), tokens: h.api.tokenRequests() };
      }
    }
    const counters = { ...h.run.engine.counters };
    h.run.engine.stopIntents();
    h.sandbox.faults.clear();
    const stopAt = h.clock.now();
    let resolvedAfterMs = -1;
    for (let t = 0; t < 120_000; t += 1_000) {
      await h.step(1_000, 500);
      const stuck = h.journal.active().some((r) => r.state === 'sent' || r.state === 'unresolved');
      if (!stuck && resolvedAfterMs < 0) resolvedAfterMs = h.clock.now() - stopAt;
    }
    const report = checkInvariants(h, 'chaos');
    const faultsByMode: Record<string, number> = h.sandbox.faults.log.counts();
    const violations = [...report.violations];
    const badBursts = perBurst.filter((n) => n !== 1);
    if (badBursts.length) violations.push(`${badBursts.length} 401 burst(s) did not cost exactly one token request: ${perBurst.join(',')}`);
    if (unhandled) violations.push(`${unhandled} unhandled rejection(s)`);
    if (resolvedAfterMs < 0) violations.push('unresolved intents remained 2 minutes after the faults stopped');
    return {
      ...report,
      violations,
      intents: counters.intents,
      approved: counters.approved,
      faultsInjected: h.sandbox.faults.log.total,
      faultsByMode,
      requests: h.requests.length,
      simulatedSeconds: Math.round((stopAt - start) / 1000),
      wallSeconds: Math.round((performance.now() - wallStart) / 100) / 10,
      tokenBursts: perBurst.length,
      tokenRequestsPerBurst: perBurst,
      burst401s,
      unhandledRejections: unhandled,
      resolvedAfterMs,
    };
  } finally {
    await h.close();
    process.off('unhandledRejection', onUnhandled);
  }
}
