import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Journal } from '../../src/exec/index.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tradeloop.js');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null && c !== sandbox?.child) c.kill('SIGKILL');
});

interface Proc {
  readonly child: ChildProcess;
  out(): string;
  err(): string;
  readonly exit: Promise<number | null>;
}

function start(args: string[], cwd: string): Proc {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, TRADELOOP_CLIENT_ID: '', TRADELOOP_CLIENT_SECRET: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  return { child, out: () => out, err: () => err, exit };
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

let sandbox: Proc | undefined;
let url = '';
let cwd = '';

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'tradeloop-shutdown-'));
  sandbox = start(['sandbox', '--port', '0', '--seed', '9'], cwd);
  await waitFor(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.test(sandbox?.out() ?? ''), 'the sandbox', 30_000);
  url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(sandbox.out())?.[1] as string;
}, 40_000);

afterAll(async () => {
  sandbox?.child.kill('SIGTERM');
  await sandbox?.exit;
});

interface WireOrder {
  readonly id: string;
  readonly ref_id: string;
  readonly status: string;
}

/** The sandbox's orders whose ref_id has the run's prefix (its truth, read over HTTP). */
async function ordersOf(prefix: string): Promise<WireOrder[]> {
  const token = await fetch(`${url}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&client_id=tradeloop-local&client_secret=tradeloop-local-secret&scope=exchange:read_order' });
  const { access_token } = (await token.json()) as { access_token: string };
  const res = await fetch(`${url}/v2/orders?limit=1000`, { headers: { authorization: `Bearer ${access_token}` } });
  return ((await res.json()) as { items: WireOrder[] }).items.filter((o) => o.ref_id.startsWith(`${prefix}-`));
}

/** Starts `tradeloop run` with grid-maker (three resting post-only bids) and waits for the three to rest. */
async function runGrid(prefix: string, cancelOnExit: boolean): Promise<{ run: Proc; journalPath: string }> {
  const journalPath = join(cwd, `${prefix}.sqlite`);
  const config = join(cwd, `${prefix}.yaml`);
  writeFileSync(
    config,
    [
      'environment: local',
      'api:',
      `  base_url: ${url}/v2`,
      `  token_url: ${url}/oauth2/token`,
      'strategies:',
      // bids 1 %, 2 % and 3 % under mid, no re-centring within the test: the grid rests as laid
      '  - plugin: grid-maker',
      '    params: { market: BTCUSD, levels: 3, spacing_bps: 100, recenter_bps: 2000 }',
      'streams: { warmup_points: 0, orders_ms: 500 }',
      `run: { cancel_on_exit: ${cancelOnExit}, ref_prefix: ${prefix} }`,
      `journal: { path: ${journalPath} }`,
    ].join('\n'),
  );
  const run = start(['run', '--config', config, '--json'], cwd);
  await waitFor(async () => (await ordersOf(prefix)).filter((o) => o.status === 'OPEN').length === 3 || run.child.exitCode !== null, 'three resting bids', 60_000);
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
  for (const o of venue) expect(journal.get(o.ref_id), `order ${o.ref_id} in the journal`).toMatchObject({ venueId: o.id, status: o.status });
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
    const venue = await ordersOf('sdon');
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
    const venue = await ordersOf('sdoff');
    const open = venue.filter((o) => o.status === 'OPEN');
    expect(open.length).toBeGreaterThanOrEqual(3);
    expect(summary).toMatchObject({ openOrdersLeft: open.length, unresolved: 0 });
    const journal = checkJournal(journalPath, venue);
    expect(journal.intents({ state: 'open' }).map((r) => r.refId).sort()).toEqual(open.map((o) => o.ref_id).sort());
    journal.close();
  });
});
