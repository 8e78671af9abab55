import { afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../core/errors.js';
import { Rng } from '../core/rng.js';
import { TestClock } from '../clock/test-clock.js';
import { FaultLog } from './fault-log.js';
import { FaultInjector, parseFaults, type FaultMode, type InjectedFault } from './faults.js';
import { startSandbox, TRUTH_PATH, type SandboxHandle } from './server.js';
import type { SandboxTruth } from './truth.js';

describe('fault log', () => {
  it('keeps exact counts per mode past its limit, and only the newest records, oldest first', () => {
    // latency first, so a request that gets latency and an action records them in that order
    const f = new FaultInjector(
      { ...parseFaults('latency=5ms,error5xx=0.2,drop=0.1,truncate@/v2/orders=0.3,commit-drop@CreateOrder=0.5'), logLimit: 50 },
      new Rng(3),
    );
    f.log.record({ mode: 'malformed', operation: 'X', method: 'GET', path: '/never' }); // evicted below
    const expected: InjectedFault[] = [{ mode: 'malformed', operation: 'X', method: 'GET', path: '/never' }];
    for (let i = 0; i < 3_000; i++) {
      const write = i % 3 === 0;
      const [operation, method, path] = write
        ? ['CreateOrder', 'POST', `/v2/orders/${i}`]
        : ['GetTicker', 'GET', `/v2/markets/${i}/ticker`];
      const plan = f.decide(operation, method, path);
      if (plan.latencyMs > 0) expected.push({ mode: 'latency', operation, method, path });
      if (plan.action !== 'none') expected.push({ mode: plan.action, operation, method, path });
    }
    const counts: Partial<Record<FaultMode, number>> = {};
    for (const e of expected) counts[e.mode] = (counts[e.mode] ?? 0) + 1;
    expect(expected.length).toBeGreaterThan(3_000);
    expect(f.log.total).toBe(expected.length);
    expect(f.log.counts()).toEqual(counts);
    expect(f.log.count('latency')).toBe(3_000);
    expect(f.log.count('commit-drop')).toBeGreaterThan(100);
    expect(f.log.count('wrong-shape')).toBe(0);
    expect(f.injected).toEqual(expected.slice(-50));
    expect(f.log.recent()).toHaveLength(50);
  });

  it('holds exactly its limit until it is full, and keeps counters only with a limit of 0', () => {
    const log = new FaultLog(3);
    const at = (i: number): InjectedFault => ({ mode: 'drop', operation: 'GetTicker', method: 'GET', path: `/${i}` });
    log.record(at(0));
    log.record(at(1));
    expect(log.recent()).toEqual([at(0), at(1)]);
    for (let i = 2; i < 7; i++) log.record(at(i));
    expect(log.recent()).toEqual([at(4), at(5), at(6)]);
    const none = new FaultLog(0);
    for (let i = 0; i < 5; i++) none.record(at(i));
    expect(none.recent()).toEqual([]);
    expect(none.count('drop')).toBe(5);
    expect(new FaultInjector({ rules: [] }, new Rng(1)).log.limit).toBe(1_000);
  });

  it('takes its limit from --faults log=N and refuses a bad one, naming it', () => {
    expect(parseFaults('drop=0.1,log=200')).toEqual({ rules: [{ mode: 'drop', rate: 0.1 }], logLimit: 200 });
    expect(() => parseFaults('log=lots')).toThrow(/log: expected a whole number/);
    expect(() => new FaultLog(-1)).toThrow(InputError);
    expect(() => new FaultLog(2.5)).toThrow(/faults\.logLimit/);
  });
});

describe('fault log through the sandbox truth API', () => {
  let handle: SandboxHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  it('reports exact totals and counts per mode, and the newest records only', async () => {
    const clock = new TestClock(Date.UTC(2025, 2, 4));
    handle = await startSandbox({
      clock,
      wallClock: clock,
      seed: 5,
      truthApi: true,
      faults: { rules: [{ mode: 'error5xx', target: 'ListMarkets' }], logLimit: 4 },
    });
    handle.faults.add({ mode: 'error429', target: 'GetTicker', count: 2 });
    for (let i = 0; i < 9; i++) expect((await fetch(`${handle.apiUrl}/markets?i=${i}`)).status).toBe(503);
    for (let i = 0; i < 3; i++) await fetch(`${handle.apiUrl}/markets/BTCUSD/ticker`);
    const truth = (await (await fetch(`${handle.url}${TRUTH_PATH}`)).json()) as SandboxTruth;
    expect(truth.faults_injected).toBe(11);
    expect(truth.fault_counts).toEqual({ error5xx: 9, error429: 2 });
    expect(truth.injected_faults.map((f) => `${f.mode} ${f.path}`)).toEqual([
      'error5xx /v2/markets',
      'error5xx /v2/markets',
      'error429 /v2/markets/BTCUSD/ticker',
      'error429 /v2/markets/BTCUSD/ticker',
    ]);
    expect(handle.truth().fault_counts).toEqual(truth.fault_counts);
  });
});
