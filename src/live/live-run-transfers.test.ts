import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TestClock } from '../clock/index.js';
import type { Decision } from '../core/index.js';
import { parseConfig } from '../config/index.js';
import { Journal } from '../exec/index.js';
import { createLogger } from '../log/index.js';
import { SimPlatform } from '../sim/sim.js';
import { balanceFromWire } from '../state/index.js';
import { defineStrategy, type IntentDraft } from '../strategy/index.js';
import { SimVenue } from '../venue/index.js';
import { ScriptedSource } from '../../test/support/scripted-source.js';
import { simMetadata } from '../../test/support/sim-metadata.js';
import { LiveRun } from './live-run.js';
import { StrategyRunner } from '../engine/strategy-runner.js';

const journals: Journal[] = [];
afterEach(() => journals.splice(0).forEach((j) => j.close()));

/** Limits of the simulated platform in these tests: 500 USD a transfer, 800 USD a day. */
const LIMITS = [
  { transferTypes: ['INTERNAL_TRANSFER_DEBIT'], periodSeconds: 0, limit: '500' },
  { transferTypes: ['INTERNAL_TRANSFER_DEBIT'], periodSeconds: 86_400, limit: '800' },
];

async function setup(o: { failReads?: boolean; limits?: typeof LIMITS } = {}) {
  const journal = new Journal(':memory:');
  journals.push(journal);
  const clock = new TestClock(Date.UTC(2025, 5, 1));
  const sim = new SimPlatform({ clock, seed: 5, funding: { USD: '5000' }, transferLimits: o.limits ?? LIMITS, transferSettleMs: 0 });
  const venue = new SimVenue(sim);
  const savings = sim.profiles.create('savings', undefined, sim.now()).id;
  const source = new ScriptedSource();
  /** Amounts (USD) the strategy transfers on the next price event, one intent each. */
  const next: string[] = [];
  const transferring = defineStrategy({
    name: 'transfer',
    description: 'moves the scripted USD amounts to the savings profile on a price event',
    params: z.object({}),
    markets: ['BTCUSD'],
    create: () => ({
      onEvent: (e) =>
        e.kind === 'price'
          ? next.splice(0).map((amount): IntentDraft => ({
              kind: 'transfer',
              asset: 'USD',
              amount,
              fromProfileId: venue.profileId,
              toProfileId: savings,
            }))
          : undefined,
    }),
  });
  const metadata = simMetadata(sim);
  metadata.fail = o.failReads ?? false;
  const lines: string[] = [];
  const log = createLogger({ level: 'debug', destination: { write: (s: string) => void lines.push(s) } });
  const run = new LiveRun({
    clock,
    venue,
    source,
    journal,
    config: parseConfig({}),
    environment: 'test',
    refPrefix: 'tr',
    log,
    metadata,
    transferLimitsRefreshMs: 60_000,
    strategies: (ids) => [new StrategyRunner('transfer', transferring, {}, ['BTCUSD'], ids)],
  });
  /** Transfers `amounts` (one intent each, in one event) and returns their decisions once all are answered. */
  const transfer = async (...amounts: string[]): Promise<Decision[]> => {
    const balances = await venue.balances();
    source.account.next({
      kind: 'balances',
      at: clock.now(),
      items: balances.map((b) => balanceFromWire(b.asset, b.available.toFixed(), b.trading.toFixed())),
    });
    next.push(...amounts);
    const before = run.engine.counters.intents;
    source.events.next({ kind: 'price', market: 'BTCUSD', at: clock.now(), price: sim.mid('BTCUSD') });
    await run.engine.drain();
    await clock.advanceAsync(10, 10); // lets the re-read that follows a transfer answer
    return run.view().decisions.slice(-(run.engine.counters.intents - before));
  };
  const warnings = (): string[] =>
    lines
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .filter((l) => l.level === 40)
      .map((l) => l.msg);
  const transfersAtVenue = (): number => sim.listTransfers({ types: ['INTERNAL_TRANSFER_DEBIT'] }).items.length;
  return { clock, sim, run, metadata, transfer, warnings, transfersAtVenue, savings, venue };
}

const codeOf = (d: Decision | undefined): string | undefined => (d?.kind === 'deny' ? d.reason.code : d?.kind);

describe('LiveRun transfer limits (List Transfer Limits → risk gate)', () => {
  it('reads the limits at start and denies a transfer over the remaining amount with TRANSFER_LIMIT', async () => {
    const s = await setup();
    await s.run.start([]);
    expect(s.metadata.reads.limits).toBe(1);
    const [over] = await s.transfer('600');
    expect(over).toMatchObject({
      kind: 'deny',
      reason: { code: 'TRANSFER_LIMIT', details: { amount: '600', remaining: '500', asset: 'USD' } },
    });
    expect(s.transfersAtVenue()).toBe(0); // denied by the gate: the venue never saw it
    expect(codeOf((await s.transfer('450'))[0])).toBe('approve');
    expect(s.transfersAtVenue()).toBe(1);
    await s.run.stop('test over');
  });

  it('counts an approved transfer at once, and reads the limits again after it is made', async () => {
    const s = await setup();
    await s.run.start([]);
    // 450 leaves 350 of the day's 800: the second 450 of the same event is denied before the venue sees either
    const [first, second] = await s.transfer('450', '450');
    expect(codeOf(first)).toBe('approve');
    expect(second).toMatchObject({ kind: 'deny', reason: { code: 'TRANSFER_LIMIT', details: { remaining: '350' } } });
    expect(s.metadata.reads.limits).toBe(2); // the transfer's answer prompted a read
    expect(codeOf((await s.transfer('351'))[0])).toBe('TRANSFER_LIMIT');
    expect(codeOf((await s.transfer('350'))[0])).toBe('approve');
    expect(s.transfersAtVenue()).toBe(2);
    await s.run.stop('test over');
  });

  it('reads again on the run clock, so what others spent is seen', async () => {
    const s = await setup();
    await s.run.start([]);
    s.sim.internalTransfer({ fromProfileId: s.venue.profileId, toProfileId: s.savings, asset: 'USD', amount: '500' }); // not through the bot
    // the bot has not read since: 500 left by its last reading (a denial prompts no read)
    expect((await s.transfer('501'))[0]).toMatchObject({ kind: 'deny', reason: { details: { remaining: '500' } } });
    expect(s.metadata.reads.limits).toBe(1);
    await s.clock.advanceAsync(60_000, 1_000);
    expect(s.metadata.reads.limits).toBe(2);
    expect((await s.transfer('301'))[0]).toMatchObject({ kind: 'deny', reason: { code: 'TRANSFER_LIMIT', details: { remaining: '300' } } });
    expect(codeOf((await s.transfer('300'))[0])).toBe('approve');
    expect(s.transfersAtVenue()).toBe(2);
    await s.run.stop('test over');
  });

  it('keeps the last limits read when a later read fails, with one warning, and does not stop the run', async () => {
    const s = await setup();
    await s.run.start([]);
    s.metadata.fail = true;
    await s.clock.advanceAsync(180_000, 1_000);
    expect(s.metadata.reads.limits).toBeGreaterThanOrEqual(4);
    expect(s.warnings().filter((w) => w.includes('transfer limits could not be read'))).toEqual([
      expect.stringMatching(/503 Service Unavailable.*keeping the limits read at 2025-06-01T00:00:00.000Z/),
    ]);
    expect(codeOf((await s.transfer('600'))[0])).toBe('TRANSFER_LIMIT');
    s.metadata.fail = false;
    await s.clock.advanceAsync(60_000, 1_000);
    expect(codeOf((await s.transfer('500'))[0])).toBe('approve');
    await s.run.stop('test over');
  });

  it('stops holding a made transfer against the balance once balances after it arrive', async () => {
    const s = await setup({ limits: [{ transferTypes: ['INTERNAL_TRANSFER_DEBIT'], periodSeconds: 0, limit: '10000' }] });
    await s.run.start([]);
    expect(codeOf((await s.transfer('3000'))[0])).toBe('approve');
    // 2000 USD left at the venue; the 3000 must not be reserved on top of the balance that already lost it
    expect(codeOf((await s.transfer('1500'))[0])).toBe('approve');
    expect(s.transfersAtVenue()).toBe(2);
    await s.run.stop('test over');
  });

  it('with no limits ever read, starts anyway and leaves transfers to the venue, saying so', async () => {
    const s = await setup({ failReads: true });
    await s.run.start([]);
    expect(s.warnings()).toContainEqual(
      expect.stringMatching(/transfer limits could not be read.*no limits known yet: transfers are left to the venue's own limits/),
    );
    expect(codeOf((await s.transfer('600'))[0])).toBe('approve');
    expect(s.transfersAtVenue()).toBe(0); // the venue refused it (its per-transfer limit): nothing moved
    await s.run.stop('test over');
  });
});
