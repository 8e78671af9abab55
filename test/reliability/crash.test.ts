import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRASH_STEPS } from '../../src/exec/crash-point.js';
import {
  compareWithTruth,
  fetchTruth,
  readJournal,
  reconciledBeforeNewIntents,
  startSandboxProcess,
  tempDir,
  tradeloop,
  writeBotConfig,
  type Proc,
} from '../support/reliability-procs.js';
import { runKillLoop } from './kill-loop.js';

let sandbox: { proc: Proc; url: string } | undefined;
const live: Proc[] = [];

beforeAll(async () => {
  sandbox = await startSandboxProcess(tempDir('crash-sandbox'));
}, 120_000);

afterAll(async () => {
  for (const p of live) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  sandbox?.proc.child.kill('SIGTERM');
  await sandbox?.proc.exit;
});

describe('SIGKILL at each step of the order lifecycle, then a restart (real runner processes, out-of-process sandbox)', () => {
  it.each(CRASH_STEPS)(
    'killed at %s: the restart reconciles before any new intent, no duplicate, no lost order or fill, journal sound',
    { timeout: 120_000 },
    async (step) => {
      const dir = tempDir(`crash-${step}`);
      const url = sandbox!.url;
      const prefix = `k${CRASH_STEPS.indexOf(step)}`;
      // the cancel step cancels each resting order on its acknowledgement: its first cancel comes right
      // after its first resting order, not after open-orders polls and prices a loaded machine delays
      const config = writeBotConfig(dir, url, prefix, step === 'cancel' ? { cancelOnAccept: true } : {});
      const first = tradeloop(['run', '--config', config], dir, { TRADELOOP_TEST_CRASH_AT: step });
      live.push(first);
      const exit = await Promise.race([first.exit, new Promise<string>((r) => setTimeout(() => r('still running'), 60_000))]);
      expect(exit, first.err().slice(-1500)).toBe('SIGKILL');
      const atKill = readJournal(join(dir, 'journal.sqlite'));
      expect(atKill.integrity).toBe('ok');
      expect(atKill.intents.length).toBeGreaterThan(0);
      // at these steps the kill leaves the intent in flight: the journal knows it only as sent
      if (step === 'intent-journaled' || step === 'order-sent' || step === 'cancel')
        expect(atKill.intents.some((r) => r.state === 'sent')).toBe(true);
      if (step === 'cancel') expect(atKill.intents.some((r) => r.kind === 'cancel-order' && r.state === 'sent')).toBe(true);
      const second = tradeloop(['run', '--config', config, '--duration', '4s', '--json'], dir);
      live.push(second);
      expect(await second.exit, second.err().slice(-1500)).toBe(0);
      const after = readJournal(join(dir, 'journal.sqlite'));
      expect(compareWithTruth(after, await fetchTruth(url), prefix)).toEqual([]);
      expect(reconciledBeforeNewIntents(atKill, after)).toEqual([]);
      expect(after.intents.length).toBeGreaterThan(atKill.intents.length);
    },
  );

  it('a few random kills in a row (the npm test share of the 100-kill loop in npm run chaos)', { timeout: 180_000 }, async () => {
    // its own sandbox, which delays order writes 300 ms as in npm run chaos, so kills can land on one in flight
    const r = await runKillLoop({ kills: 3, seed: 4 });
    expect(r.violations).toEqual([]);
    expect(r.kills).toBe(3);
    expect(r.venueOrders).toBeGreaterThan(0);
  });
});
