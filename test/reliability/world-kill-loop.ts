import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Rng } from '../../src/core/index.js';
import { StateStore } from '../../src/sandbox/state-store.js';
import { type SimSnapshot } from '../../src/sim/snapshot.js';
import { compareWithTruth, journalReady, readJournal, tempDir, tradeloop, waitFor } from '../support/reliability-procs.js';

const PLUGIN = resolve(import.meta.dirname, 'fixtures/crash-churn.ts');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface WorldKillReport {
  readonly kills: number;
  readonly instances: number;
  readonly worldOrders: number;
  readonly journalFills: number;
  readonly wallSeconds: number;
  readonly violations: string[];
}

/** The world in the embedded sandbox's state file, read once no run holds it. */
function world(file: string): SimSnapshot | undefined {
  if (!existsSync(file)) return undefined;
  const store = new StateStore(file);
  try {
    return store.load();
  } finally {
    store.close();
  }
}

/** The world as the truth API would show it (the fields the journal comparison reads). */
function truthOf(w: SimSnapshot): { orders: Record<string, unknown>[]; executions: Record<string, unknown>[] } {
  return {
    orders: w.orders.map((o) => ({ id: o.id, ref_id: o.refId, status: o.status })),
    executions: w.executions.map((x) => ({ execution_id: x.executionId, order_id: x.orderId })),
  };
}

/** Journal orders and fills the world does not hold under the same ref_id and order. */
function missingFromWorld(journalFile: string, w: SimSnapshot): string[] {
  const j = readJournal(journalFile);
  const orders = new Map(w.orders.map((o) => [String(o.id), String(o.refId)]));
  const execs = new Map(w.executions.map((x) => [String(x.executionId), String(x.orderId)]));
  const out: string[] = [];
  for (const r of j.intents)
    if (r.venue_id !== null && r.kind === 'place-order' && orders.get(r.venue_id) !== r.ref_id)
      out.push(`journal order ${r.ref_id}/${r.venue_id} not in the world`);
  for (const f of j.fills) if (execs.get(f.fill_id) !== f.order_id) out.push(`journal fill ${f.fill_id} of ${f.order_id} not in the world`);
  return out;
}

/**
 * The kill-and-restart storm on the embedded sandbox: `tradeloop run` in `local` (its sandbox in
 * the same process, its world in `.tradeloop`-style state beside the journal) SIGKILLed at a seeded
 * random moment while it trades, restarted each time. After every kill the world must hold every
 * order and fill the journal has, under the same ref_id; the instance id never changes; a final
 * clean run must leave the journal equal to the world.
 */
export async function runWorldKillLoop(o: { kills: number; seed: number }): Promise<WorldKillReport> {
  const started = performance.now();
  const rng = new Rng(o.seed).fork('world-kills');
  const dir = tempDir('world-kill-loop');
  const prefix = `wk${o.seed}`;
  const journal = join(dir, 'journal.sqlite');
  const state = join(dir, 'sandbox-state.sqlite');
  const config = join(dir, 'bot.yaml');
  writeFileSync(
    config,
    [
      'environment: local',
      `local: { seed: ${o.seed} }`,
      'strategies:',
      `  - plugin: ${PLUGIN}`,
      '    params: { cancelOnAccept: true }',
      'streams: { prices_ms: 250, balances_ms: 500, orders_ms: 250, warmup_points: 3 }',
      'risk: { max_intents_per_minute: 10000, max_open_orders: 100, max_order_notional: "100000", stale_after_ms: 60000 }',
      `run: { cancel_on_exit: false, ref_prefix: ${prefix} }`,
      `journal: { path: ${journal} }`,
      'log: { level: warn }',
    ].join('\n'),
  );
  const violations: string[] = [];
  const instances = new Set<string>();
  let kills = 0;
  for (let i = 0; i < o.kills; i++) {
    const fills = journalReady(journal) ? readJournal(journal).fills.length : 0;
    const run = tradeloop(['run', '--config', config], dir);
    const trading = waitFor(() => journalReady(journal) && readJournal(journal).fills.length > fills, 'a fill of this run', 60_000).then(
      () => undefined,
      (e: unknown) => String(e),
    );
    const early = await Promise.race([run.exit, trading.then(async (stuck) => stuck ?? (await sleep(rng.next() * 3_000)))]);
    if (early !== undefined)
      violations.push(`run ${i}: ${typeof early === 'string' ? early : `exited by itself (${early})`}: ${run.err().slice(-600)}`);
    if (run.child.exitCode === null) run.child.kill('SIGKILL');
    await run.exit;
    kills++;
    const w = world(state);
    if (w === undefined) continue;
    if (w.instanceId !== undefined) instances.add(w.instanceId);
    violations.push(...missingFromWorld(journal, w).map((v) => `after kill ${i}: ${v}`));
  }
  const last = tradeloop(['run', '--config', config, '--duration', '4s', '--json'], dir);
  const code = await last.exit;
  if (code !== 0) violations.push(`final run exited ${code}: ${last.err().slice(-500)}`);
  const w = world(state);
  if (w === undefined) violations.push('no world after the final run');
  else {
    if (w.instanceId !== undefined) instances.add(w.instanceId);
    violations.push(...missingFromWorld(journal, w), ...compareWithTruth(readJournal(journal), truthOf(w), prefix));
  }
  if (instances.size !== 1) violations.push(`${instances.size} sandbox instances over the storm (wanted one world)`);
  return {
    kills,
    instances: instances.size,
    worldOrders: w?.orders.length ?? 0,
    journalFills: journalReady(journal) ? readJournal(journal).fills.length : 0,
    wallSeconds: Math.round((performance.now() - started) / 100) / 10,
    violations,
  };
}
