import { copyFileSync, existsSync, linkSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startSandboxProcess, tempDir, tradeloop, waitFor, writeBotConfig, type Proc } from '../support/reliability-procs.js';

export interface JournalChaosOptions {
  readonly seed: number;
}

export interface JournalChaosReport {
  /** Starts that had to be refused (copied journal, empty journal with a used prefix, second writer by its name, a symbolic and a hard link). */
  readonly refusalsWanted: number;
  /** Of those, refused at start with exit 2 and the reason. */
  readonly refused: number;
  /** Records at the venue (orders, quote executions, transfer legs) whose ref_id another record of ours shares. */
  readonly duplicateRefIds: number;
  readonly venueRecords: number;
  /** The resting order whose journal rows were deleted by hand, then journaled again at the next start. */
  readonly editedOrphan?: string;
  readonly wallSeconds: number;
  readonly violations: string[];
}

type Json = Record<string, unknown>;

/**
 * Journals that must not trade, through `tradeloop run` against a sandbox process: a copy of a
 * journal whose original has moved on, an empty journal given a prefix the venue holds, and a
 * second bot on a running bot's journal must each be refused at start (exit 2), a bot must start
 * again on a journal whose writer was SIGKILLed, and at the end no ref_id of ours names two records
 * at the venue across orders, quote executions and transfers (the venue keeps them unique per kind
 * only). Last, a journal edited by hand (a resting order's rows deleted, not its newest) must not
 * hide that order: after the next start every order of ours at the venue is in the journal.
 */
export async function runJournalChaos(o: JournalChaosOptions): Promise<JournalChaosReport> {
  const started = performance.now();
  const sb = await startSandboxProcess(tempDir('journal-chaos'), o.seed);
  const procs: Proc[] = [];
  const violations: string[] = [];
  let refusalsWanted = 0;
  let refused = 0;
  let editedOrphan: string | undefined;
  const run = (dir: string, args: readonly string[] = []): Proc => {
    const p = tradeloop(['run', '--config', join(dir, 'bot.yaml'), '--json', ...args], dir);
    procs.push(p);
    return p;
  };
  const refs = async (): Promise<string[]> => truthRefs(await truth(sb.url), 'jc-');
  const tradeUntil = async (dir: string, atLeast: number): Promise<void> => {
    const p = run(dir);
    await waitFor(async () => (await refs()).length >= atLeast || p.child.exitCode !== null, `${atLeast} records of jc`, 90_000);
    if (p.child.exitCode !== null) violations.push(`a run that should trade exited ${p.child.exitCode}: ${p.err().slice(-300)}`);
    p.child.kill('SIGINT');
    await p.exit;
  };
  const mustRefuse = async (dir: string, what: string, reason: RegExp): Promise<void> => {
    refusalsWanted++;
    const before = (await refs()).length;
    const p = run(dir, ['--duration', '60s']);
    const code = await p.exit;
    if (code === 2 && reason.test(p.err())) refused++;
    else violations.push(`${what}: exit ${code}, not refused at start (${p.err().slice(-300)})`);
    if ((await refs()).length !== before) violations.push(`${what}: records were sent`);
  };
  try {
    const original = tempDir('jc-original');
    writeBotConfig(original, sb.url, 'jc');
    await tradeUntil(original, 3);
    const copy = tempDir('jc-copy');
    writeBotConfig(copy, sb.url, 'jc');
    for (const s of ['', '-wal'])
      if (existsSync(join(original, `journal.sqlite${s}`)))
        copyFileSync(join(original, `journal.sqlite${s}`), join(copy, `journal.sqlite${s}`));
    await tradeUntil(original, (await refs()).length + 2);
    await mustRefuse(copy, 'copied journal', /journal\.path: \S+ is a copy of the journal made in/);
    const empty = tempDir('jc-empty');
    writeBotConfig(empty, sb.url, 'jc');
    await mustRefuse(empty, 'empty journal with a used prefix', /run\.ref_prefix: this journal is empty/);
    const first = run(original);
    const had = (await refs()).length;
    await waitFor(async () => (await refs()).length > had || first.child.exitCode !== null, 'the writer trading', 90_000);
    // the writer is paused (its lock still held) so that records counted at the venue meanwhile can
    // only come from the bot that must be refused; what it sent just before lands first
    first.child.kill('SIGSTOP');
    let last = -1;
    await waitFor(
      async () => {
        const n = (await refs()).length;
        const settled = n === last;
        last = n;
        return settled;
      },
      "the paused writer's last requests",
      30_000,
    );
    await mustRefuse(original, 'second writer', /journal\.path: .* is in use by another running bot/);
    // the same journal through a symbolic link, and through a hard link (removed after: the file must keep one name)
    const viaSymlink = tempDir('jc-symlink');
    writeBotConfig(viaSymlink, sb.url, 'jc');
    symlinkSync(join(original, 'journal.sqlite'), join(viaSymlink, 'journal.sqlite'));
    await mustRefuse(
      viaSymlink,
      'second writer on a symbolic link',
      /journal\.path: .* is in use by another running bot \(its writer lock \S+ is held\)/,
    );
    const viaHardLink = tempDir('jc-hardlink');
    writeBotConfig(viaHardLink, sb.url, 'jc');
    linkSync(join(original, 'journal.sqlite'), join(viaHardLink, 'journal.sqlite'));
    await mustRefuse(viaHardLink, 'second writer on a hard link', /journal\.path: .* is one of 2 names of one journal file \(hard links\)/);
    rmSync(join(viaHardLink, 'journal.sqlite'));
    first.child.kill('SIGCONT');
    first.child.kill('SIGKILL');
    await first.exit;
    await tradeUntil(original, (await refs()).length + 1);
    // an edited journal: a resting order's rows deleted by hand; the next start must journal the
    // orphan (and handle it by run.orphans), not trade on as if it did not exist
    editedOrphan = await deleteRestingOrder(join(original, 'journal.sqlite'), (await truth(sb.url)).orders);
    if (editedOrphan === undefined) violations.push('edited journal: no resting order of ours to delete from the journal');
    await tradeUntil(original, (await refs()).length + 1);
    const missing = missingFromJournal(join(original, 'journal.sqlite'), (await truth(sb.url)).orders);
    if (missing.length > 0)
      violations.push(
        `edited journal: ${missing.length} order(s) of ours at the venue are not in the journal after a restart (${missing.slice(0, 3).join(', ')})`,
      );
    const all = await truth(sb.url);
    const ours = truthRefs(all, 'jc-');
    const seen = new Map<string, number>();
    for (const r of ours) seen.set(r, (seen.get(r) ?? 0) + 1);
    const duplicateRefIds = [...seen.values()].filter((n) => n > 1).length;
    if (duplicateRefIds > 0) violations.push(`${duplicateRefIds} ref_id(s) name more than one record at the venue`);
    return {
      refusalsWanted,
      refused,
      duplicateRefIds,
      venueRecords: ours.length,
      ...(editedOrphan !== undefined && { editedOrphan }),
      wallSeconds: Math.round((performance.now() - started) / 100) / 10,
      violations,
    };
  } finally {
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    sb.proc.child.kill('SIGTERM');
    await sb.proc.exit;
  }
}

async function truth(url: string): Promise<{ orders: Json[]; quote_executions: Json[]; transfers: Json[] }> {
  const res = await fetch(`${url}/__sandbox/truth`);
  return (await res.json()) as { orders: Json[]; quote_executions: Json[]; transfers: Json[] };
}

/**
 * The ref_ids with `prefix` of every order, quote execution and transfer (one per transfer: the two
 * legs of an internal transfer carry one ref_id between them).
 */
function truthRefs(t: { orders: Json[]; quote_executions: Json[]; transfers: Json[] }, prefix: string): string[] {
  const transfers = new Set(t.transfers.map((x) => String(x.ref_id ?? '')));
  return [...t.orders, ...t.quote_executions]
    .map((x) => String(x.ref_id ?? ''))
    .concat([...transfers])
    .filter((r) => r.startsWith(prefix));
}

/**
 * Deletes from the journal (its bot stopped) the rows of one order that rests at the venue, other
 * than the newest order of the journal (whose id the start's check at the venue would find taken and
 * refuse, which is a refusal, not the orphan case). Returns its ref_id.
 */
function deleteRestingOrder(file: string, orders: Json[]): string | undefined {
  const db = new Database(file);
  try {
    const rows = db.prepare("SELECT ref_id FROM intents WHERE kind = 'place-order' ORDER BY created_at DESC, ref_id DESC").all() as Array<{
      ref_id: string;
    }>;
    const newest = rows[0]?.ref_id;
    const resting = new Set(orders.filter((o) => o.status === 'OPEN').map((o) => String(o.ref_id ?? '')));
    const victim = rows.find((r) => r.ref_id !== newest && resting.has(r.ref_id))?.ref_id;
    if (victim === undefined) return undefined;
    db.prepare('DELETE FROM events WHERE ref_id = ?').run(victim);
    db.prepare('DELETE FROM intents WHERE ref_id = ?').run(victim);
    return victim;
  } finally {
    db.close();
  }
}

/** The ref_ids of the venue's orders with the scenario's prefix that the journal does not hold. */
function missingFromJournal(file: string, orders: Json[]): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const known = new Set((db.prepare('SELECT ref_id FROM intents').all() as Array<{ ref_id: string }>).map((r) => r.ref_id));
    return orders.map((o) => String(o.ref_id ?? '')).filter((r) => r.startsWith('jc-') && !known.has(r));
  } finally {
    db.close();
  }
}
