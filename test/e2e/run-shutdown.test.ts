import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/exec/index.js';
import { tradeloop, useSandboxProcess, waitFor, writeLocalConfig, type Proc, type WireOrder } from '../support/reliability-procs.js';

const sb = useSandboxProcess('shutdown', 9);

/** Starts `tradeloop run` with grid-maker (three resting post-only bids) and waits for the three to rest. */
async function runGrid(prefix: string, cancelOnExit: boolean): Promise<{ run: Proc; journalPath: string }> {
  const journalPath = join(sb.cwd, `${prefix}.sqlite`);
  const config = writeLocalConfig(join(sb.cwd, `${prefix}.yaml`), sb.url, [
    'strategies:',
    // bids 1 %, 2 % and 3 % under mid, no re-centring within the test: the grid rests as laid
    '  - plugin: grid-maker',
    '    params: { market: BTCUSD, levels: 3, spacing_bps: 100, recenter_bps: 2000 }',
    'streams: { warmup_points: 0, orders_ms: 500 }',
    `run: { cancel_on_exit: ${cancelOnExit}, ref_prefix: ${prefix} }`,
    `journal: { path: ${journalPath} }`,
  ]);
  const run = tradeloop(['run', '--config', config, '--json'], sb.cwd);
  sb.runs.push(run);
  await waitFor(
    async () => (await sb.ordersOf(prefix)).filter((o) => o.status === 'OPEN').length === 3 || run.child.exitCode !== null,
    'three resting bids',
    60_000,
  );
  // a few open-orders polls see them resting (shutdown must not trust the last one after cancelling)
  await new Promise((r) => setTimeout(r, 2_500));
  expect(run.child.exitCode, run.err().slice(-2000)).toBeNull();
  return { run, journalPath };
}

interface Summary {
  readonly ordersPlaced: number;
  readonly openOrdersLeft: number;
  readonly unresolved: number;
}

/** Every order at the sandbox is in the journal with its id and status; nothing is left in flight. */
function checkJournal(journalPath: string, venue: readonly WireOrder[]): Journal {
  const journal = new Journal(journalPath);
  expect(journal.integrityCheck()).toBe('ok');
  for (const o of venue)
    expect(journal.get(o.ref_id), `order ${o.ref_id} in the journal`).toMatchObject({ venueId: o.id, status: o.status });
  expect(journal.intents({ kind: 'place-order' })).toHaveLength(venue.length);
  expect(journal.active().filter((r) => r.state === 'sent' || r.state === 'unresolved' || r.state === 'pending')).toEqual([]);
  return journal;
}

describe('tradeloop run shutdown (the real command against a sandbox process)', () => {
  it('on SIGTERM with cancel_on_exit: exits 0, cancels every resting order and journals them cancelled', { timeout: 120_000 }, async () => {
    const { run, journalPath } = await runGrid('sdon', true);
    run.child.kill('SIGTERM');
    const code = await run.exit;
    expect(code, run.err().slice(-2000)).toBe(0);
    expect(run.err()).toMatch(/stopping: SIGTERM received/);
    const summary = JSON.parse(run.out().trim().split('\n').at(-1) ?? '{}') as Summary;
    expect(summary).toMatchObject({ openOrdersLeft: 0, unresolved: 0 });
    const venue = await sb.ordersOf('sdon');
    expect(venue.length).toBe(summary.ordersPlaced);
    expect(venue.filter((o) => o.status === 'OPEN')).toEqual([]);
    expect(venue.filter((o) => o.status === 'CANCELLED').length).toBeGreaterThanOrEqual(3);
    const journal = checkJournal(journalPath, venue);
    expect(journal.intents({ state: 'open' })).toEqual([]);
    journal.close();
  });

  it('on SIGINT without cancel_on_exit: exits 0, leaves the bids resting and journals them open', { timeout: 120_000 }, async () => {
    const { run, journalPath } = await runGrid('sdoff', false);
    run.child.kill('SIGINT');
    const code = await run.exit;
    expect(code, run.err().slice(-2000)).toBe(0);
    expect(run.err()).toMatch(/stopping: SIGINT received/);
    const summary = JSON.parse(run.out().trim().split('\n').at(-1) ?? '{}') as Summary;
    const venue = await sb.ordersOf('sdoff');
    const open = venue.filter((o) => o.status === 'OPEN');
    expect(open.length).toBeGreaterThanOrEqual(3);
    expect(summary).toMatchObject({ openOrdersLeft: open.length, unresolved: 0 });
    const journal = checkJournal(journalPath, venue);
    expect(
      journal
        .intents({ state: 'open' })
        .map((r) => r.refId)
        .sort(),
    ).toEqual(open.map((o) => o.ref_id).sort());
    journal.close();
  });
});
