/**
 * The control API's resume rules: an operator's halt is lifted by a plain resume; a kill-switch trip
 * only with kill_switch: true (a habit press must not undo a loss limit); a ref_id conflict by no
 * resume; each cause is kept apart with its reason; stop asks the run once.
 */
import { describe, expect, it } from 'vitest';
import { TestClock } from '../../src/clock/index.js';
import { Control } from '../../src/ops/control.js';
import { OpsState } from '../../src/ops/index.js';
import type { HaltCause } from '../../src/risk/index.js';
import { stubRun } from './stub-run.js';

function setup(): { control: Control; state: OpsState; stub: ReturnType<typeof stubRun> } {
  const stub = stubRun(new TestClock(0), ['alpha', 'beta']);
  const state = new OpsState(stub.run);
  return { control: new Control(stub.run, state), state, stub };
}

describe('control actions', () => {
  it("lifts an operator's halt with a plain resume", async () => {
    const { control, state } = setup();
    expect((await control.act('halt', { reason: 'lunch' })).body.trading).toMatchObject({
      state: 'halted',
      reason: 'halted by an operator: lunch',
    });
    expect((await control.act('halt', {})).body.message).toBe('trading was already halted');
    expect((await control.act('resume', {})).status).toBe(200);
    expect(state.haltState().state).toBe('running');
  });

  it('refuses to lift a kill-switch trip without kill_switch: true, naming how', async () => {
    const { control, state, stub } = setup();
    stub.trip('drawdown 11.00% exceeds 10%');
    expect(state.haltState()).toMatchObject({ state: 'kill-switch', reason: 'drawdown 11.00% exceeds 10%' });
    const refused = await control.act('resume', {});
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(
      /halted by the kill switch \(drawdown 11\.00% exceeds 10%\).*"kill_switch": true.*Resume kill switch button/,
    );
    expect(state.haltState().state).toBe('kill-switch');
    expect((await control.act('resume', { kill_switch: true })).body.trading).toEqual({ state: 'running', causes: [] });
  });

  it("keeps each cause apart: a plain resume lifts the operator's halt only; a ref_id conflict no resume lifts", async () => {
    const { control, state, stub } = setup();
    await control.act('halt', { reason: 'lunch' });
    stub.run.kernel.gate.killSwitch.trip('ref_id x-7 already names a different record', { kind: 'ref-id-conflict', allowReducing: false });
    stub.trip('drawdown 11.00% exceeds 10%');
    expect(state.haltState()).toMatchObject({ state: 'kill-switch', allowsReducing: false });
    expect(state.haltState().causes.map((c) => c.kind)).toEqual(['operator', 'ref-id-conflict', 'drawdown']);
    const plain = await control.act('resume', {});
    expect(plain.status).toBe(200);
    expect((plain.body.lifted as HaltCause[]).map((c) => c.kind)).toEqual(['operator']);
    expect(plain.body.message).toMatch(
      /trading stays halted by ref-id-conflict \(ref_id x-7.*lifted only by a restart\), drawdown \(drawdown 11\.00%.*"kill_switch": true/,
    );
    expect(((await control.act('resume', { kill_switch: true })).body.lifted as HaltCause[]).map((c) => c.kind)).toEqual(['drawdown']);
    const refused = await control.act('resume', { kill_switch: true });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/halted by ref-id-conflict .*no resume lifts it; fix the cause and restart the run/);
    expect(state.haltState()).toMatchObject({
      state: 'kill-switch',
      causes: [expect.objectContaining({ kind: 'ref-id-conflict', lift: 'restart' })],
    });
  });

  it('refuses a reason that is not a string, and asks the run to stop once', async () => {
    const { control, stub } = setup();
    expect((await control.act('halt', { reason: 5 })).status).toBe(400);
    expect((await control.act('stop', {})).status).toBe(202);
    expect((await control.act('stop', {})).status).toBe(202);
    expect(stub.stopRequests).toEqual(['stop requested through the control API']);
  });

  it('pauses and resumes one strategy; an unknown one is a 404 naming the running ones, as for exit; resume without a strategy keeps its meaning', async () => {
    const { control, state } = setup();
    const unknown = { status: 404, body: { error: 'no running strategy is named "gamma": running: alpha, beta' } };
    expect(await control.act('pause', { strategy: 'gamma' })).toEqual(unknown);
    expect(await control.act('exit', { strategy: 'gamma' })).toEqual(unknown);
    expect((await control.act('pause', {})).body.error).toMatch(/strategy must name a running strategy, e\.g\. \{"strategy": "alpha"\}/);
    expect(await control.act('resume', { strategy: 'gamma' })).toEqual(unknown);
    expect((await control.act('pause', { strategy: 'beta', reason: 7 })).status).toBe(400);
    const paused = await control.act('pause', { strategy: 'beta', reason: 'news' });
    expect(paused).toMatchObject({
      status: 200,
      body: { strategy: 'beta', paused: { strategy: 'beta', reason: 'paused by an operator: news' } },
    });
    expect((await control.act('pause', { strategy: 'beta' })).body.message).toBe('beta was already paused');
    expect(state.strategies().map((s) => [s.name, s.state])).toEqual([
      ['alpha', 'running'],
      ['beta', 'paused'],
    ]);
    expect(state.status().pausedStrategies).toEqual([expect.objectContaining({ strategy: 'beta' })]);
    expect(state.haltState().state).toBe('running'); // a pause is no halt of all trading

    await control.act('halt', {});
    expect((await control.act('resume', { strategy: 'beta', kill_switch: true })).status).toBe(400);
    const resumed = await control.act('resume', { strategy: 'beta' });
    expect(resumed.body).toMatchObject({
      strategy: 'beta',
      resumed: true,
      message: expect.stringMatching(/^beta resumed; trading as a whole stays halted \(operator/),
    });
    expect(state.haltState().state).toBe('halted'); // the strategy's resume lifts no halt
    await control.act('resume', {});
    expect(state.haltState().state).toBe('running');
    expect((await control.act('resume', { strategy: 'beta' })).body).toMatchObject({ resumed: false, message: 'beta was not paused' });
    expect(state.strategies().map((s) => s.state)).toEqual(['running', 'running']);
  });
});
