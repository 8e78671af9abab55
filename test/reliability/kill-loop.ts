import { join } from 'node:path';
import { Rng } from '../../src/core/index.js';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import {
  compareWithTruth,
  fetchTruth,
  readJournal,
  reconciledBeforeNewIntents,
  startSandboxProcess,
  tempDir,
  tradeloop,
  waitFor,
  writeBotConfig,
  type JournalFacts,
} from '../support/reliability-procs.js';

const sleep = (ms: number): Promise<undefined> => new Promise((r) => setTimeout(() => r(undefined), ms));

/** Intents journaled so far, read through a short read-only connection (WAL allows it while the runner writes). */
function intentCount(file: string): number {
  if (!existsSync(file)) return 0;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM intents').get() as { n: number }).n;
  } catch {
    return 0; // not created yet
  } finally {
    db.close();
  }
}

/** Denied intents by denial code (the runner is not running). */
function deniedByCode(file: string): Record<string, number> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare("SELECT denial_code AS code, COUNT(*) AS n FROM intents WHERE state = 'denied' GROUP BY denial_code")
      .all() as Array<{ code: string; n: number }>;
    return Object.fromEntries(rows.map((r) => [r.code, r.n]));
  } finally {
    db.close();
  }
}

export interface KillLoopOptions {
  readonly kills: number;
  readonly seed: number;
  /** A running sandbox to use (its own faults apply); otherwise one is started (with --state, --truth and `writeLatencyMs`) and stopped. */
  readonly url?: string;
  /**
   * Latency the loop's own sandbox adds to every CreateOrder and CancelOrder (default 300 ms; 0 for
   * none), so that a random kill often finds a write on the wire: on loopback a round trip lasts
   * milliseconds and no kill ever landed in one. It stays well under a restart (> 1 s), so the
   * delayed write has run by the time the restarted runner looks it up.
   */
  readonly writeLatencyMs?: number;
}

export interface KillLoopReport {
  readonly kills: number;
  readonly restarts: number;
  readonly venueOrders: number;
  readonly journalIntents: number;
  /** Kills that left an intent of the killed run in flight (journaled as sent, outcome unknown to the runner). */
  readonly inFlightKills: number;
  /** Intents left in flight by those kills, by kind (`place-order`, `cancel-order`). */
  readonly inFlightByKind: Readonly<Record<string, number>>;
  /** Intents the risk gate denied over the loop, by denial code. */
  readonly deniedByCode: Readonly<Record<string, number>>;
  readonly wallSeconds: number;
  readonly violations: string[];
}

/**
 * Random SIGKILLs of the real runner: start `tradeloop run` and kill it at a seeded random moment
 * — one time in five during start-up (reconciliation, warm-up), otherwise within 3 s of its first
 * new intent (while trading) — then check the journal's integrity and that the
 * next run reconciled what the kill left in flight before its first new intent; after the last kill
 * a final run must leave the journal equal to the sandbox's truth.
 */
export async function runKillLoop(o: KillLoopOptions): Promise<KillLoopReport> {
  const started = performance.now();
  const latencyMs = o.writeLatencyMs ?? 300;
  const faults = latencyMs > 0 ? `latency@CreateOrder=${latencyMs}ms,latency@CancelOrder=${latencyMs}ms` : undefined;
  const own = o.url === undefined ? await startSandboxProcess(tempDir('kill-sandbox'), o.seed, faults) : undefined;
  const url = o.url ?? own!.url;
  const rng = new Rng(o.seed).fork('kills');
  const dir = tempDir('kill-loop');
  const prefix = `rk${o.seed}`;
  // each order is cancelled once acknowledged: under the default rule the orders of killed runs
  // rested for good, and after some forty kills the open-order cap denied every new order
  const config = writeBotConfig(dir, url, prefix, { cancelOnAccept: true });
  const file = join(dir, 'journal.sqlite');
  const violations: string[] = [];
  let previous: JournalFacts | undefined;
  let kills = 0;
  let inFlightKills = 0;
  const inFlightByKind: Record<string, number> = {};
  try {
    for (let i = 0; i < o.kills; i++) {
      const before = intentCount(file);
      const run = tradeloop(['run', '--config', config], dir);
      // one kill in five lands during start-up (reconciliation, warm-up), the others while trading
      const duringStartup = rng.next() < 0.2;
      const ready = duringStartup
        ? Promise.resolve(undefined)
        : waitFor(() => intentCount(file) > before, 'the restarted runner to trade', 60_000).then(
            () => undefined,
            (e: unknown) => String(e),
          );
      const early = await Promise.race([
        run.exit,
        ready.then((stuck) => stuck ?? sleep(duringStartup ? 500 + rng.next() * 3_500 : rng.next() * 3_000)),
      ]);
      if (early !== undefined) {
        violations.push(
          `run ${i} ${typeof early === 'string' && early.startsWith('Error') ? 'made no intent within 60 s' : `exited by itself (${early})`}: ${run.err().slice(-600)}`,
        );
        if (run.child.exitCode === null) run.child.kill('SIGKILL');
        await run.exit;
        continue;
      }
      run.child.kill('SIGKILL');
      await run.exit;
      kills++;
      const now = journalIfCreated(file);
      if (now === undefined) continue; // killed before it created its journal: nothing to check yet
      if (now.integrity !== 'ok') violations.push(`after kill ${i}: integrity ${now.integrity}`);
      const inFlight = newlyInFlight(previous, now);
      if (inFlight.length) inFlightKills++;
      for (const r of inFlight) inFlightByKind[r.kind] = (inFlightByKind[r.kind] ?? 0) + 1;
      if (previous) violations.push(...reconciledBeforeNewIntents(previous, now).map((v) => `run ${i}: ${v}`));
      previous = now;
    }
    const last = tradeloop(['run', '--config', config, '--duration', '4s', '--json'], dir);
    const code = await last.exit;
    if (code !== 0) violations.push(`final run exited ${code}: ${last.err().slice(-500)}`);
    const final = readJournal(file);
    if (previous) violations.push(...reconciledBeforeNewIntents(previous, final).map((v) => `final run: ${v}`));
    const truth = await fetchTruth(url);
    violations.push(...compareWithTruth(final, truth, prefix));
    return {
      kills,
      restarts: kills,
      venueOrders: truth.orders.filter((x) => String(x.ref_id ?? '').startsWith(`${prefix}-`)).length,
      journalIntents: final.intents.length,
      inFlightKills,
      inFlightByKind,
      deniedByCode: deniedByCode(file),
      wallSeconds: Math.round((performance.now() - started) / 100) / 10,
      violations,
    };
  } finally {
    if (own) {
      own.proc.child.kill('SIGTERM');
      await own.proc.exit;
    }
  }
}

/** Intents the killed run made that the kill left in flight (a kill during start-up leaves older ones so). */
function newlyInFlight(previous: JournalFacts | undefined, now: JournalFacts): JournalFacts['intents'] {
  const known = new Set(previous?.intents.map((r) => r.ref_id));
  return now.intents.filter((r) => !known.has(r.ref_id) && (r.state === 'sent' || r.state === 'pending'));
}

/** The journal's facts, or undefined when the killed run had not created it (no file, or no tables yet). */
function journalIfCreated(file: string): JournalFacts | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return readJournal(file);
  } catch (e) {
    if (/no such table/.test(String(e))) return undefined;
    throw e;
  }
}
