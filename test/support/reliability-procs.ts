import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { SandboxHttp } from './sandbox-http.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tradeloop.js');
const PLUGIN = join(ROOT, 'test/reliability/fixtures/crash-churn.ts');

/** A child process of the real CLI, with its output kept. */
export interface Proc {
  readonly child: ChildProcess;
  out(): string;
  err(): string;
  /** Exit code, or the signal's name when killed. */
  readonly exit: Promise<number | string>;
}

/**
 * Spawns `tradeloop <args>` in `cwd` with the local credential (extra environment in `env`; a
 * variable given as undefined is removed from the child's environment, not set empty).
 */
export function tradeloop(args: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>> = {}): Proc {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, TRADELOOP_CLIENT_ID: '', TRADELOOP_CLIENT_SECRET: '', TRADELOOP_TEST_CRASH_AT: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | string>((res) => child.on('exit', (code, signal) => res(code ?? signal ?? -1)));
  return { child, out: () => out, err: () => err, exit };
}

/** Waits (polling real time: these are real processes) until `check` holds. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** An out-of-process sandbox with a state file and the truth API (and `--faults faults` when given). */
export async function startSandboxProcess(cwd: string, seed = 9, faults?: string): Promise<{ proc: Proc; url: string }> {
  const proc = tradeloop(
    [
      'sandbox',
      '--port',
      '0',
      '--seed',
      String(seed),
      '--state',
      join(cwd, 'sandbox-state.json'),
      '--truth',
      ...(faults ? ['--faults', faults] : []),
    ],
    cwd,
  );
  const re = /listening on (http:\/\/127\.0\.0\.1:\d+)/;
  // a few seconds alone; generous for a machine under other load
  await waitFor(() => re.test(proc.out()), `the sandbox (${proc.err().slice(-300)})`, 90_000);
  return { proc, url: re.exec(proc.out())?.[1] as string };
}

/**
 * `tradeloop <args>` for one test file: every process it starts and that is still running when a test
 * ends is SIGKILLed then.
 */
export function useTradeloop(): (args: readonly string[], cwd: string, env?: Record<string, string>) => Proc {
  const started: Proc[] = [];
  afterEach(() => {
    for (const p of started.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  });
  return (args, cwd, env = {}) => {
    const proc = tradeloop([...args], cwd, env);
    started.push(proc);
    return proc;
  };
}

/** An order as the sandbox lists it, the fields tests compare. */
export interface WireOrder {
  readonly id: string;
  readonly ref_id: string;
  readonly status: string;
}

/** A sandbox process shared by a test file: its folder, its URL, the runs to kill after each test, and its orders by ref prefix. */
export interface SharedSandbox {
  readonly cwd: string;
  readonly url: string;
  readonly runs: Proc[];
  ordersOf(prefix: string): Promise<WireOrder[]>;
}

/**
 * Starts a sandbox process (seed `seed`) before the file's tests and stops it after them; every run a
 * test pushes to `runs` and leaves alive is SIGKILLed after that test.
 */
export function useSandboxProcess(name: string, seed: number): SharedSandbox {
  const s = { cwd: '', url: '', runs: [] as Proc[], proc: undefined as Proc | undefined };
  afterEach(() => {
    for (const r of s.runs.splice(0)) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
  });
  beforeAll(async () => {
    s.cwd = tempDir(name);
    ({ proc: s.proc, url: s.url } = await startSandboxProcess(s.cwd, seed));
  }, 120_000);
  afterAll(async () => {
    s.proc?.child.kill('SIGTERM');
    await s.proc?.exit;
  });
  return {
    get cwd() {
      return s.cwd;
    },
    get url() {
      return s.url;
    },
    runs: s.runs,
    ordersOf: async (prefix) => (await sandboxOrders<WireOrder>(s.url)).filter((o) => o.ref_id.startsWith(`${prefix}-`)),
  };
}

/**
 * Writes a YAML config for `environment: local` pointing at the sandbox at `url`, followed by
 * `lines` (strategies, streams, run, journal…), and returns its path.
 */
export function writeLocalConfig(file: string, url: string, lines: readonly string[]): string {
  writeFileSync(file, ['environment: local', 'api:', `  base_url: ${url}/v2`, `  token_url: ${url}/oauth2/token`, ...lines].join('\n'));
  return file;
}

/** Every order at the sandbox at `url` (its truth, read over HTTP with the default credential). */
export async function sandboxOrders<T = Record<string, unknown>>(url: string): Promise<T[]> {
  const http = new SandboxHttp(url);
  const res = await http.get<{ items: T[] }>('/v2/orders?limit=1000', await http.token(['exchange:read_order']));
  return res.body.items;
}

/** A bot config pointing at `url`, running the crash-churn plugin (with `params`) with a journal in `dir`. */
export function writeBotConfig(dir: string, url: string, prefix: string, params: Record<string, unknown> = {}): string {
  return writeLocalConfig(join(dir, 'bot.yaml'), url, [
    'strategies:',
    `  - plugin: ${PLUGIN}`,
    `    params: ${JSON.stringify(params)}`,
    'streams: { prices_ms: 250, balances_ms: 500, orders_ms: 250, warmup_points: 3 }',
    'risk: { max_intents_per_minute: 10000, max_open_orders: 100, max_order_notional: "100000", stale_after_ms: 60000 }',
    `run: { cancel_on_exit: false, ref_prefix: ${prefix} }`,
    `journal: { path: ${join(dir, 'journal.sqlite')} }`,
    'log: { level: info }',
  ]);
}

export function tempDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `tradeloop-${name}-`));
}

type Json = Record<string, unknown>;

/** The sandbox's truth: every order, execution and profile. */
export async function fetchTruth(url: string): Promise<{ orders: Json[]; executions: Json[] }> {
  const res = await fetch(`${url}/__sandbox/truth`);
  return (await res.json()) as { orders: Json[]; executions: Json[] };
}

/**
 * Whether a journal that another process is writing can be read yet: the file exists and its tables
 * are made. The file appears when the writer opens it, a moment before its tables, so a poll in
 * between would find "no such table".
 */
export function journalReady(file: string): boolean {
  if (!existsSync(file)) return false;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'intents', 'events', 'fills')")
      .all();
    return tables.length === 4;
  } catch (e) {
    // the writer holds the file for a moment (opening it in WAL mode): not ready yet
    if ((e as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw e;
  } finally {
    db.close();
  }
}

/** Journal facts read straight from SQLite (the runner is not running). */
export interface JournalFacts {
  readonly integrity: string;
  readonly maxEventSeq: number;
  readonly intents: Array<{
    ref_id: string;
    kind: string;
    state: string;
    venue_id: string | null;
    status: string | null;
    created_at: number;
    rowid: number;
  }>;
  readonly fills: Array<{ fill_id: string; order_id: string }>;
  readonly eventsAfter: (seq: number) => Array<{ seq: number; ref_id: string; at: number; type: string }>;
}

export function readJournal(file: string): JournalFacts {
  const db = new Database(file, { fileMustExist: true });
  try {
    const integrity = String(db.pragma('integrity_check', { simple: true }));
    const maxEventSeq = (db.prepare('SELECT COALESCE(MAX(seq), 0) AS m FROM events').get() as { m: number }).m;
    const intents = db
      .prepare('SELECT rowid, ref_id, kind, state, venue_id, status, created_at FROM intents')
      .all() as JournalFacts['intents'];
    const fills = db.prepare('SELECT fill_id, order_id FROM fills').all() as JournalFacts['fills'];
    const events = db.prepare('SELECT seq, ref_id, at, type FROM events ORDER BY seq').all() as Array<{
      seq: number;
      ref_id: string;
      at: number;
      type: string;
    }>;
    return { integrity, maxEventSeq, intents, fills, eventsAfter: (seq) => events.filter((e) => e.seq > seq) };
  } finally {
    db.close();
  }
}

/**
 * The journal against the sandbox's truth, once no runner is running: one venue order per ref_id;
 * every venue order of `prefix` journaled with its id and status; nothing sent, pending or
 * unresolved; every venue fill of our orders journaled exactly once; SQLite's integrity check ok.
 */
export function compareWithTruth(j: JournalFacts, truth: { orders: Json[]; executions: Json[] }, prefix: string): string[] {
  const v: string[] = [];
  if (j.integrity !== 'ok') v.push(`journal integrity check: ${j.integrity}`);
  const ours = truth.orders.filter((o) => String(o.ref_id ?? '').startsWith(`${prefix}-`));
  const byRef = new Map<string, number>();
  for (const o of ours) byRef.set(String(o.ref_id), (byRef.get(String(o.ref_id)) ?? 0) + 1);
  for (const [ref, n] of byRef) if (n > 1) v.push(`${n} venue orders for ref_id ${ref}`);
  const rows = new Map(j.intents.map((r) => [r.ref_id, r]));
  for (const o of ours) {
    const row = rows.get(String(o.ref_id));
    if (!row) v.push(`venue order ${String(o.ref_id)} missing from the journal`);
    else if (row.venue_id !== o.id || row.status !== o.status)
      v.push(`${row.ref_id}: journal ${row.venue_id}/${row.status}, venue ${String(o.id)}/${String(o.status)}`);
  }
  for (const r of j.intents) {
    if (['sent', 'pending', 'unresolved'].includes(r.state)) v.push(`${r.ref_id} left ${r.state}`);
    if (r.status === 'NOT_PLACED' && byRef.has(r.ref_id)) v.push(`${r.ref_id} journaled NOT_PLACED but at the venue`);
  }
  const orderIds = new Set(ours.map((o) => String(o.id)));
  const venueFills = truth.executions.filter((x) => orderIds.has(String(x.order_id)));
  const journaled = new Set(j.fills.map((f) => f.fill_id));
  const lost = venueFills.filter((x) => !journaled.has(String(x.execution_id)));
  if (lost.length) v.push(`${lost.length} venue fill(s) of our orders missing from the journal`);
  if (j.fills.length !== venueFills.length) v.push(`journal has ${j.fills.length} fills, the venue ${venueFills.length} for our orders`);
  return v;
}

/**
 * "Reconciled before any new intent": every intent left in flight by a kill (sent, pending or
 * unresolved at the kill) got its first post-restart journal event no later than the first intent
 * the restarted runner made. `atKill` is the journal read right after the kill.
 */
export function reconciledBeforeNewIntents(atKill: JournalFacts, after: JournalFacts): string[] {
  const inFlight = atKill.intents.filter((r) => ['sent', 'pending', 'unresolved'].includes(r.state)).map((r) => r.ref_id);
  const known = new Set(atKill.intents.map((r) => r.ref_id));
  const fresh = after.intents.filter((r) => !known.has(r.ref_id));
  if (fresh.length === 0 || inFlight.length === 0) return [];
  const firstNew = Math.min(...fresh.map((r) => r.created_at));
  const later = after.eventsAfter(atKill.maxEventSeq);
  const v: string[] = [];
  for (const ref of inFlight) {
    const first = later.find((e) => e.ref_id === ref);
    if (!first) v.push(`${ref} (in flight at the kill) was never reconciled`);
    else if (first.at > firstNew) v.push(`${ref} was reconciled at ${first.at}, after the first new intent at ${firstNew}`);
  }
  return v;
}
