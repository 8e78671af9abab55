/**
 * A journal that can no longer be trusted, through the real `tradeloop run` against a sandbox
 * process: a second bot reaching a running bot's journal through a symbolic or a hard link is
 * refused at start (exit 2, naming the lock); a journal write that fails (the file may no longer
 * grow, SQLite's own SQLITE_FULL) halts trading at once, sends a `journal-failed` webhook and ends
 * the run with exit 5, and a restart trades again; the journal's folder deleted mid-run is found
 * within a watch interval, the run halts and exits 5 naming what happened, and no order is sent
 * after; a journal with a damaged page is refused at start (exit 2) naming the file and the fix.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeSync, linkSync, openSync, rmSync, statSync, symlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { journalReady, tempDir, tradeloop, useSandboxProcess, waitFor, writeLocalConfig, type Proc } from '../support/reliability-procs.js';

const sb = useSandboxProcess('journal-failure', 17);
const PLUGIN = join(import.meta.dirname, '../reliability/fixtures/crash-churn.ts');
const SECRET = 'journal-failure-webhook-secret';

/** A bot config in `dir` whose journal is `journal` (default `<dir>/.tradeloop/journal.sqlite`). */
function botConfig(
  dir: string,
  prefix: string,
  journal = join(dir, '.tradeloop', 'journal.sqlite'),
  extra: readonly string[] = [],
): string {
  return writeLocalConfig(join(dir, 'bot.yaml'), sb.url, [
    'strategies:',
    `  - plugin: ${PLUGIN}`,
    '    params: {}',
    'streams: { prices_ms: 250, balances_ms: 500, orders_ms: 250, warmup_points: 3 }',
    'risk: { max_intents_per_minute: 10000, max_open_orders: 100, max_order_notional: "100000", stale_after_ms: 60000 }',
    `run: { cancel_on_exit: false, ref_prefix: ${prefix} }`,
    `journal: { path: ${journal} }`,
    'log: { level: info }',
    ...extra,
  ]);
}

function run(dir: string, args: readonly string[] = [], env: Record<string, string> = {}): Proc {
  const p = tradeloop(['run', '--config', join(dir, 'bot.yaml'), '--json', ...args], dir, env);
  sb.runs.push(p);
  return p;
}

async function tradesUntil(p: Proc, prefix: string, atLeast: number): Promise<void> {
  await waitFor(
    async () => (await sb.ordersOf(prefix)).length >= atLeast || p.child.exitCode !== null,
    `${atLeast} orders of ${prefix}`,
    90_000,
  );
  expect(p.child.exitCode, p.err().slice(-2000)).toBeNull();
}

/** The `time` of the first JSON log line of `p` that carries `alert`. */
function alertTime(p: Proc, alert: string): number {
  for (const line of p.err().split('\n')) {
    if (!line.startsWith('{')) continue;
    const rec = JSON.parse(line) as { alert?: string; time?: number };
    if (rec.alert === alert && typeof rec.time === 'number') return rec.time;
  }
  throw new Error(`no ${alert} alert in the log: ${p.err().slice(-2000)}`);
}

describe('the one-writer lock meets aliases of the journal', () => {
  it(
    "a second bot on a symbolic link to a running bot's journal is refused with exit 2, naming the lock",
    { timeout: 180_000 },
    async () => {
      const a = tempDir('jf-sym-a');
      botConfig(a, 'sym', join(a, 'journal.sqlite'));
      const first = run(a);
      await tradesUntil(first, 'sym', 1);
      const b = tempDir('jf-sym-b');
      symlinkSync(join(a, 'journal.sqlite'), join(b, 'journal.sqlite'));
      botConfig(b, 'sym', join(b, 'journal.sqlite'));
      const had = (await sb.ordersOf('sym')).length;
      const second = run(b, ['--duration', '30s']);
      expect(await second.exit, second.err().slice(-2000)).toBe(2);
      expect(second.err()).toMatch(
        /journal\.path: \S+journal\.sqlite is in use by another running bot \(its writer lock \S+\/journal\.sqlite\.lock is held\)/,
      );
      expect(second.err()).toContain(`${a}/journal.sqlite.lock`);
      // the first bot trades on, alone
      await tradesUntil(first, 'sym', had + 2);
      first.child.kill('SIGINT');
      expect(await first.exit).toBe(0);
    },
  );

  it("a second bot on a hard link to a running bot's journal is refused with exit 2, naming the lock", { timeout: 180_000 }, async () => {
    const a = tempDir('jf-hard-a');
    botConfig(a, 'hard', join(a, 'journal.sqlite'));
    const first = run(a);
    await tradesUntil(first, 'hard', 1);
    const b = tempDir('jf-hard-b');
    linkSync(join(a, 'journal.sqlite'), join(b, 'journal.sqlite'));
    botConfig(b, 'hard', join(b, 'journal.sqlite'));
    const second = run(b, ['--duration', '30s']);
    expect(await second.exit, second.err().slice(-2000)).toBe(2);
    expect(second.err()).toMatch(
      /journal\.path: \S+journal\.sqlite is one of 2 names of one journal file \(hard links\): its writer lock \S+\.lock is taken by name/,
    );
    expect(first.child.exitCode).toBeNull();
    first.child.kill('SIGINT');
    expect(await first.exit).toBe(0);
  });
});

describe('a journal write that fails', () => {
  it('halts trading at once, notifies, ends the run with exit 5; a restart trades again', { timeout: 180_000 }, async () => {
    const got: { event: string; body: { data: Record<string, unknown> } }[] = [];
    const hook = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        got.push({ event: String(req.headers['x-tradeloop-event']), body: JSON.parse(body) as { data: Record<string, unknown> } });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    try {
      const dir = tempDir('jf-full');
      botConfig(dir, 'full', undefined, ['notify: { timeout_ms: 2000 }']);
      const env = {
        TRADELOOP_NOTIFY_URL: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`,
        TRADELOOP_NOTIFY_SECRET: SECRET,
      };
      // the journal takes 80 writes (some twenty orders), then its file may no longer grow: SQLITE_FULL
      const p = run(dir, ['--duration', '90s'], { ...env, TRADELOOP_TEST_JOURNAL_FULL_AFTER: '80' });
      expect(await p.exit, p.err().slice(-3000)).toBe(5);
      expect(p.err()).toMatch(
        /error \[JOURNAL_FAILED\]: trading halted and the run stopped: a write to the journal \S+journal\.sqlite failed \(SQLITE_FULL: database or disk is full, in \w+\)/,
      );
      expect(p.err()).toMatch(/Free space/);
      const summary = JSON.parse(p.out()) as { journalFailure?: { kind: string }; halted?: string; ordersPlaced: number };
      expect(summary.journalFailure?.kind).toBe('write-failed');
      expect(summary.halted).toMatch(/^journal failed: a write to the journal/);
      expect(summary.ordersPlaced).toBeGreaterThan(0);
      await waitFor(() => got.some((g) => g.event === 'run-stop'), 'the run-stop webhook', 10_000);
      const failed = got.find((g) => g.event === 'journal-failed');
      expect(failed?.body.data.reason).toMatch(/SQLITE_FULL/);
      expect(failed?.body.data.exitCode).toBe(5);
      expect(got.findIndex((g) => g.event === 'journal-failed')).toBeLessThan(got.findIndex((g) => g.event === 'run-stop'));
      // every order of ours at the venue was journaled before it was sent: none went out after the failure
      const journal = new Database(join(dir, '.tradeloop', 'journal.sqlite'), { readonly: true });
      const journaled = new Set((journal.prepare('SELECT ref_id FROM intents').all() as { ref_id: string }[]).map((r) => r.ref_id));
      journal.close();
      const atVenue = await sb.ordersOf('full');
      expect(atVenue.filter((o) => !journaled.has(o.ref_id))).toEqual([]);
      // the operator's resume is a restart once the cause is gone: the journal reconciles and trading goes on
      const again = run(dir, [], env);
      await tradesUntil(again, 'full', atVenue.length + 1);
      again.child.kill('SIGINT');
      expect(await again.exit, again.err().slice(-2000)).toBe(0);
    } finally {
      hook.closeAllConnections();
      hook.close();
    }
  });
});

describe('a journal deleted during the run', () => {
  it(
    'is found within a watch interval: trading halts, nothing is sent after, the run exits 5 naming what happened',
    { timeout: 180_000 },
    async () => {
      const dir = tempDir('jf-rm');
      botConfig(dir, 'gone');
      const p = run(dir, ['--duration', '60s']);
      await tradesUntil(p, 'gone', 2);
      // second names outside the folder keep the journal (and its write-ahead log) readable after the folder is deleted
      const kept = join(dir, 'kept.sqlite');
      for (const s of ['', '-wal']) linkSync(join(dir, '.tradeloop', `journal.sqlite${s}`), `${kept}${s}`);
      rmSync(join(dir, '.tradeloop'), { recursive: true, force: true });
      expect(await p.exit, p.err().slice(-3000)).toBe(5);
      expect(p.err()).toMatch(
        /error \[JOURNAL_FAILED\]: trading halted and the run stopped: the journal \S+\/\.tradeloop\/journal\.sqlite was deleted during the run \(its folder \S+\/\.tradeloop too\)/,
      );
      expect(p.err()).toMatch(/a new journal needs a new run\.ref_prefix/);
      const summary = JSON.parse(p.out()) as { journalFailure?: { kind: string; at: number } };
      expect(summary.journalFailure?.kind).toBe('deleted');
      const halted = alertTime(p, 'JOURNAL_FAILED');
      const db = new Database(kept, { readonly: true });
      const after = db
        .prepare("SELECT ref_id FROM intents WHERE decision = 'approve' AND kind = 'place-order' AND created_at > ?")
        .all(halted);
      const requests = db.prepare("SELECT ref_id FROM events WHERE type = 'request' AND at > ?").all(halted);
      const journaled = new Set((db.prepare('SELECT ref_id FROM intents').all() as { ref_id: string }[]).map((r) => r.ref_id));
      db.close();
      expect(after).toEqual([]);
      expect(requests).toEqual([]);
      // and the venue holds nothing of ours the (deleted) journal did not record before the halt
      expect((await sb.ordersOf('gone')).filter((o) => !journaled.has(o.ref_id))).toEqual([]);
    },
  );
});

describe('a journal with a damaged page', () => {
  it('is refused at start with exit 2, naming the file and the fix, with no stack trace', { timeout: 120_000 }, async () => {
    const dir = tempDir('jf-corrupt');
    const file = join(dir, 'journal.sqlite');
    botConfig(dir, 'bad', file);
    const p = run(dir);
    await tradesUntil(p, 'bad', 3);
    p.child.kill('SIGINT');
    expect(await p.exit).toBe(0);
    expect(journalReady(file)).toBe(true);
    // garbage over a page of the intents table (not the first page, which holds the schema)
    const db = new Database(file, { readonly: true });
    const root = (db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'intents'").get() as { rootpage: number }).rootpage;
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    db.close();
    expect(statSync(file).size).toBeGreaterThan(root * pageSize);
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (root - 1) * pageSize);
    closeSync(fd);
    const again = run(dir, ['--duration', '30s']);
    expect(await again.exit, again.err().slice(-2000)).toBe(2);
    expect(again.err()).toMatch(
      new RegExp(
        `journal\\.path: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is damaged \\(SQLite's quick_check: .+\\): restore it from a backup`,
      ),
    );
    expect(again.err()).toMatch(/or move it aside and start a new journal/);
    expect(again.err()).not.toMatch(/SqliteError| {4}at /);
  });
});
