import { linkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Rng } from '../../src/core/index.js';
import {
  sandboxOrders,
  startSandboxProcess,
  tempDir,
  tradeloop,
  waitFor,
  writeLocalConfig,
  type Proc,
} from '../support/reliability-procs.js';

const PLUGIN = join(import.meta.dirname, 'fixtures/crash-churn.ts');

export interface JournalLossOptions {
  /** Rounds of each experiment (a failed write, a deleted journal). */
  readonly rounds: number;
  readonly seed: number;
}

export interface JournalLossReport {
  readonly rounds: number;
  /** Runs whose journal refused a write (SQLITE_FULL after a seeded number of writes) that halted and exited 5. */
  readonly writeFailuresHalted: number;
  /** Of those, restarted once the fault was gone, reconciled and traded again. */
  readonly restartsTrading: number;
  /** Runs whose journal folder was deleted mid-run that halted and exited 5. */
  readonly deletionsHalted: number;
  /** Of those, the next start on the empty path refused (exit 2) rather than trading under the used prefix. */
  readonly nextStartsRefused: number;
  /** Orders at the venue the journal never recorded (must be 0: each is journaled before it is sent). */
  readonly unjournaledOrders: number;
  /** Intents approved or requests journaled after the halt (must be 0). */
  readonly sentAfterHalt: number;
  /** Milliseconds from the folder's deletion to the halt's alert, per round. */
  readonly detectionMs: number[];
  readonly venueOrders: number;
  readonly wallSeconds: number;
  readonly violations: string[];
}

/**
 * The journal lost under a trading bot, through `tradeloop run` against a sandbox process. A failed
 * write: the journal's file may no longer grow after a seeded number of writes (SQLITE_FULL as on a
 * full disk); the run must halt, exit 5 naming the failure, have sent nothing it did not journal, and
 * trade again after a restart without the fault. A deleted journal: the journal's folder is deleted
 * after a seeded number of orders; the run must find it, halt, exit 5 naming what happened, approve
 * and send nothing after its alert, and the next start on the now empty path must be refused (the
 * venue holds the prefix's ids) rather than trade on a new journal.
 */
export async function runJournalLoss(o: JournalLossOptions): Promise<JournalLossReport> {
  const started = performance.now();
  const rng = new Rng(`journal-loss-${o.seed}`);
  const sb = await startSandboxProcess(tempDir('journal-loss'), o.seed);
  const procs: Proc[] = [];
  const violations: string[] = [];
  const detectionMs: number[] = [];
  let writeFailuresHalted = 0;
  let restartsTrading = 0;
  let deletionsHalted = 0;
  let nextStartsRefused = 0;
  let unjournaledOrders = 0;
  let sentAfterHalt = 0;
  const run = (dir: string, args: readonly string[] = [], env: Record<string, string> = {}): Proc => {
    const p = tradeloop(['run', '--config', join(dir, 'bot.yaml'), '--json', ...args], dir, env);
    procs.push(p);
    return p;
  };
  const orders = async (prefix: string): Promise<string[]> =>
    (await sandboxOrders<{ ref_id: string }>(sb.url)).map((x) => x.ref_id).filter((r) => r.startsWith(`${prefix}-`));
  const unjournaled = async (prefix: string, journal: string): Promise<string[]> => {
    const known = refsIn(journal);
    return (await orders(prefix)).filter((r) => !known.has(r));
  };
  try {
    for (let round = 0; round < o.rounds; round++) {
      // a write the journal refuses
      const full = tempDir('jl-full');
      const fullPrefix = `jlf${round}`;
      config(full, sb.url, fullPrefix);
      const writes = rng.int(40, 400);
      const p = run(full, ['--duration', '180s'], { TRADELOOP_TEST_JOURNAL_FULL_AFTER: String(writes) });
      const code = await p.exit;
      if (
        code === 5 &&
        /error \[JOURNAL_FAILED\]: trading halted and the run stopped: a write to the journal \S+ failed \(SQLITE_FULL/.test(p.err())
      )
        writeFailuresHalted++;
      else
        violations.push(
          `round ${round}: a journal full after ${writes} writes: exit ${code}, not 5 naming SQLITE_FULL (${p.err().slice(-300)})`,
        );
      const journal = join(full, '.tradeloop', 'journal.sqlite');
      const lost = await unjournaled(fullPrefix, journal);
      unjournaledOrders += lost.length;
      if (lost.length)
        violations.push(
          `round ${round}: ${lost.length} order(s) at the venue the full journal never recorded: ${lost.slice(0, 3).join(', ')}`,
        );
      const had = (await orders(fullPrefix)).length;
      const again = run(full);
      await waitFor(
        async () => (await orders(fullPrefix)).length > had || again.child.exitCode !== null,
        'the restart trading',
        90_000,
      ).catch(() => undefined);
      if (again.child.exitCode === null && (await orders(fullPrefix)).length > had) restartsTrading++;
      else
        violations.push(
          `round ${round}: the restart after the full journal did not trade (exit ${again.child.exitCode}: ${again.err().slice(-300)})`,
        );
      again.child.kill('SIGINT');
      await again.exit;
      const afterRestart = await unjournaled(fullPrefix, journal);
      if (afterRestart.length)
        violations.push(`round ${round}: after the restart ${afterRestart.length} order(s) at the venue are not in the journal`);

      // the journal's folder deleted under the bot
      const rm = tempDir('jl-rm');
      const rmPrefix = `jlr${round}`;
      config(rm, sb.url, rmPrefix);
      const bot = run(rm, ['--duration', '180s']);
      const before = rng.int(1, 6);
      await waitFor(
        async () => (await orders(rmPrefix)).length >= before || bot.child.exitCode !== null,
        `${before} orders of ${rmPrefix}`,
        90_000,
      );
      const kept = join(rm, 'kept.sqlite');
      for (const s of ['', '-wal']) linkSync(join(rm, '.tradeloop', `journal.sqlite${s}`), `${kept}${s}`);
      const deletedAt = Date.now();
      rmSync(join(rm, '.tradeloop'), { recursive: true, force: true });
      const rmCode = await bot.exit;
      if (
        rmCode === 5 &&
        /error \[JOURNAL_FAILED\]: trading halted and the run stopped: the journal \S+ was deleted during the run/.test(bot.err())
      )
        deletionsHalted++;
      else
        violations.push(
          `round ${round}: the journal's folder deleted: exit ${rmCode}, not 5 naming the deletion (${bot.err().slice(-300)})`,
        );
      const alertAt = alertTime(bot.err());
      if (alertAt !== undefined) detectionMs.push(alertAt - deletedAt);
      const late = alertAt === undefined ? 0 : sentAfter(kept, alertAt);
      sentAfterHalt += late;
      if (late) violations.push(`round ${round}: ${late} intent(s) approved or request(s) journaled after the halt`);
      const missing = await unjournaled(rmPrefix, kept);
      unjournaledOrders += missing.length;
      if (missing.length)
        violations.push(
          `round ${round}: ${missing.length} order(s) at the venue the deleted journal never recorded: ${missing.slice(0, 3).join(', ')}`,
        );
      const next = run(rm, ['--duration', '60s']);
      const nextCode = await next.exit;
      if (nextCode === 2 && /run\.ref_prefix: this journal is empty/.test(next.err())) nextStartsRefused++;
      else
        violations.push(
          `round ${round}: the start after the journal was deleted: exit ${nextCode}, not refused (${next.err().slice(-300)})`,
        );
    }
    const all = (await sandboxOrders<{ ref_id: string }>(sb.url)).filter((x) => x.ref_id.startsWith('jl'));
    return {
      rounds: o.rounds,
      writeFailuresHalted,
      restartsTrading,
      deletionsHalted,
      nextStartsRefused,
      unjournaledOrders,
      sentAfterHalt,
      detectionMs,
      venueOrders: all.length,
      wallSeconds: Math.round((performance.now() - started) / 100) / 10,
      violations,
    };
  } finally {
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    sb.proc.child.kill('SIGTERM');
    await sb.proc.exit;
  }
}

function config(dir: string, url: string, prefix: string): void {
  writeLocalConfig(join(dir, 'bot.yaml'), url, [
    'strategies:',
    `  - plugin: ${PLUGIN}`,
    '    params: {}',
    'streams: { prices_ms: 250, balances_ms: 500, orders_ms: 250, warmup_points: 3 }',
    'risk: { max_intents_per_minute: 10000, max_open_orders: 100, max_order_notional: "100000", stale_after_ms: 60000 }',
    `run: { cancel_on_exit: false, ref_prefix: ${prefix} }`,
    `journal: { path: ${join(dir, '.tradeloop', 'journal.sqlite')} }`,
    'log: { level: info }',
  ]);
}

function refsIn(journal: string): Set<string> {
  const db = new Database(journal, { readonly: true, fileMustExist: true });
  try {
    return new Set((db.prepare('SELECT ref_id FROM intents').all() as Array<{ ref_id: string }>).map((r) => r.ref_id));
  } finally {
    db.close();
  }
}

/** Intents approved, and requests journaled, after `at` (the halt's alert). */
function sentAfter(journal: string, at: number): number {
  const db = new Database(journal, { readonly: true, fileMustExist: true });
  try {
    const approved = db
      .prepare("SELECT COUNT(*) AS n FROM intents WHERE decision = 'approve' AND kind <> 'cancel-order' AND created_at > ?")
      .get(at) as { n: number };
    const requests = db
      .prepare(
        "SELECT COUNT(*) AS n FROM events e JOIN intents i ON i.ref_id = e.ref_id WHERE e.type = 'request' AND i.kind <> 'cancel-order' AND e.at > ?",
      )
      .get(at) as { n: number };
    return approved.n + requests.n;
  } finally {
    db.close();
  }
}

/** The time of the JOURNAL_FAILED alert in a run's JSON log, if any. */
function alertTime(stderr: string): number | undefined {
  for (const line of stderr.split('\n')) {
    if (!line.startsWith('{')) continue;
    const rec = JSON.parse(line) as { alert?: string; time?: number };
    if (rec.alert === 'JOURNAL_FAILED' && typeof rec.time === 'number') return rec.time;
  }
  return undefined;
}
