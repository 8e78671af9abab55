/**
 * Halt causes through the control API of a real `tradeloop run --ui` on a sandbox process: each
 * cause is kept with its own reason and lifted only in its own way, and the kill switch's marks (the
 * UTC day's opening equity, the drawdown's peak) survive an operator's halt and resume and a restart.
 * - 4,900 of a 5,000 `daily_loss_limit` lost, halted and resumed, then 4,900 more: the day's loss of
 *   9,800 trips the switch (a resume used to set the day's opening equity afresh).
 * - a ref_id conflict during an operator's halt is a cause of its own: a plain resume lifts the
 *   operator's halt and leaves it, `resume --kill-switch` does not lift it, `ctl status` shows both.
 * - a restart mid-day keeps the day's opening equity: 4,900 lost before the restart and 4,900 after trip.
 * Money leaves the bot's profile by internal transfers to another profile, as a loss would take it
 * (the day's loss also moves with the price of the BTC the bot holds: a few USD either way).
 */
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-helpers.js';
import { SandboxHttp } from '../support/sandbox-http.js';
import { startSandboxProcess, tempDir, useTradeloop, waitFor, writeLocalConfig, type Proc } from '../support/reliability-procs.js';
import { startUiRunOf, TOKEN, type Json, type UiRun } from './ops-cli.js';

const SELLER = resolve(import.meta.dirname, 'fixtures/seller.ts');
const start = useTradeloop();

let sandbox: { proc: Proc; url: string; http: SandboxHttp; token: string; sink: string } | undefined;
beforeAll(async () => {
  const { proc, url } = await startSandboxProcess(tempDir('halt-causes-sandbox'), 31);
  const http = new SandboxHttp(url);
  const token = await http.token();
  const sink = (await http.post('/v2/profiles', { nickname: 'sink' }, token)).body.id as string;
  sandbox = { proc, url, http, token, sink };
}, 60_000);
afterAll(async () => {
  sandbox?.proc.child.kill('SIGTERM');
  await sandbox?.proc.exit;
});

function sb(): NonNullable<typeof sandbox> {
  if (!sandbox) throw new Error('no sandbox');
  return sandbox;
}

let transfers = 0;
/** Moves `amount` USD out of the bot's profile (a loss, as the kill switch sees equity). */
async function lose(amount: string): Promise<void> {
  const s = sb();
  const res = await s.http.post(
    '/v2/transfer/internal',
    { from_profile_id: 'default', to_profile_id: s.sink, asset: 'USD', amount, ref_id: `loss-${++transfers}` },
    s.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}

/** A bot config on the shared sandbox (a journal of its own in `dir`). */
function botConfig(dir: string, prefix: string): string {
  return writeLocalConfig(join(dir, 'bot.yaml'), sb().url, [
    'strategies:',
    `  - plugin: ${SELLER}`,
    '    params: { every: 4 }',
    'streams: { warmup_points: 3, prices_ms: 250, ticker_ms: 500, book_ms: 500, orders_ms: 300, balances_ms: 300 }',
    'risk: { daily_loss_limit: "5000", max_open_orders: 1000 }',
    `run: { ref_prefix: ${prefix}, cancel_on_exit: true }`,
    'ui: { port: 0 }',
    `journal: { path: ${join(dir, 'journal.sqlite')} }`,
  ]);
}

async function risk(run: UiRun): Promise<Json> {
  return (await run.api('/api/risk')).body;
}

/** Waits until the kill switch has marked an equity at or below `atMost` (undefined: any equity), and returns its state. */
async function markedAtMost(run: UiRun, atMost?: number): Promise<Json> {
  let last: Json;
  await waitFor(
    async () => {
      last = (await risk(run)).killSwitch;
      return last?.lastMarkedEquity !== undefined && (atMost === undefined || Number(last.lastMarkedEquity) <= atMost);
    },
    `an equity mark${atMost === undefined ? '' : ` at most ${atMost}`}`,
    45_000,
  );
  return last;
}

async function stop(run: UiRun): Promise<void> {
  expect((await run.api('/api/stop', { method: 'POST' })).status).toBe(202);
  expect(await run.proc.exit, run.proc.err().slice(-2_000)).toBe(0);
}

const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

describe('halt causes through the control API', () => {
  it(
    "an operator's halt and resume keep the day's opening equity: 4,900 then 9,800 lost trips a 5,000 limit",
    { timeout: 240_000 },
    async () => {
      const dir = tempDir('halt-loss');
      const run = await startUiRunOf(start, dir, botConfig(dir, 'hl'));
      const first = await markedAtMost(run);
      const open = Number(first.dayOpenEquity);

      await lose('4900');
      await markedAtMost(run, open - 4_800);
      expect((await run.api('/api/status')).body.trading.state).toBe('running');

      expect((await run.api('/api/halt', { method: 'POST', body: { reason: 'looking' } })).body.trading).toMatchObject({
        state: 'halted',
        causes: [expect.objectContaining({ kind: 'operator' })],
      });
      expect((await run.api('/api/resume', { method: 'POST' })).body.trading).toEqual({ state: 'running', causes: [] });
      expect((await risk(run)).killSwitch).toMatchObject({ dayOpenEquity: first.dayOpenEquity, day: first.day });

      await lose('4900');
      await waitFor(async () => (await run.api('/api/status')).body.trading.state === 'kill-switch', 'the kill switch to trip', 45_000);
      const trading = (await run.api('/api/status')).body.trading;
      expect(trading.causes).toEqual([
        expect.objectContaining({
          kind: 'daily-loss',
          lift: 'kill-switch',
          reason: expect.stringMatching(/^daily loss 9[5-9]\d\d\.\d\d exceeds 5000$/),
        }),
      ]);
      // a plain resume does not lift it
      expect((await run.api('/api/resume', { method: 'POST' })).status).toBe(409);
      await stop(run);
    },
  );

  it(
    "a ref_id conflict during an operator's halt is its own cause: a resume lifts only the operator's, none lifts the conflict",
    { timeout: 240_000 },
    async () => {
      const dir = tempDir('halt-conflict');
      const run = await startUiRunOf(start, dir, botConfig(dir, 'hc'));
      const s = sb();
      // trading: the buy filled and sells resting
      await waitFor(
        async () => ((await run.api('/api/orders')).body.open as Json[]).some((o) => o.side === 'SELL'),
        'a resting sell',
        45_000,
      );
      await run.api('/api/halt', { method: 'POST', body: { reason: 'lunch' } });

      // another client takes the next ref_ids of this bot's prefix (on another profile): the sells that
      // still go during the halt (they reduce a position) meet one of them
      const decisions = (await run.api('/api/decisions')).body as Json[];
      const last = Math.max(...decisions.map((d) => Number(/^hc-(\d+)$/.exec(d.refId)?.[1] ?? 0)));
      expect(last).toBeGreaterThan(0);
      await lose('2000'); // the other profile's funds for its orders (no loss limit is near: 2,000 of 5,000)
      let planted = 0;
      for (let seq = last + 1; seq <= last + 40; seq++) {
        const res = await s.http.post(
          `/v2/profiles/${s.sink}/orders`,
          { side: 'BUY', market: 'BTCUSD', type: 'LIMIT', price: '10000', base_amount: '0.001', ref_id: `hc-${seq}` },
          s.token,
        );
        if (res.status < 300) planted++;
      }
      expect(planted).toBeGreaterThan(30);
      await waitFor(
        async () => ((await run.api('/api/status')).body.trading.causes as Json[]).some((c) => c.kind === 'ref-id-conflict'),
        'the ref_id conflict halt',
        45_000,
      );
      const both = (await run.api('/api/status')).body.trading;
      expect(both).toMatchObject({ state: 'kill-switch', allowsReducing: false });
      expect(both.causes.map((c: Json) => c.kind)).toEqual(['operator', 'ref-id-conflict']);
      expect(both.causes[0].reason).toBe('halted by an operator: lunch');
      expect(both.causes[1]).toMatchObject({
        lift: 'restart',
        allowsReducing: false,
        reason: expect.stringMatching(/^ref_id hc-\d+ already names a different record/),
      });

      // `tradeloop ctl status` shows every cause
      const status = await runCli(['ctl', 'status', '--url', run.url.replace(/\/$/, '')], { TRADELOOP_UI_TOKEN: TOKEN });
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toMatch(
        /^trading +kill-switch: operator \(halted by an operator: lunch\); ref-id-conflict \(ref_id hc-\d+ already names a different record/m,
      );

      // a plain resume lifts the operator's halt only
      const resumed = await run.api('/api/resume', { method: 'POST' });
      expect(resumed.status).toBe(200);
      expect(resumed.body.lifted.map((c: Json) => c.kind)).toEqual(['operator']);
      expect(resumed.body.message).toMatch(/trading stays halted by ref-id-conflict/);
      expect((await run.api('/api/status')).body.trading).toMatchObject({
        state: 'kill-switch',
        causes: [expect.objectContaining({ kind: 'ref-id-conflict' })],
      });
      // and no resume lifts the conflict: it needs a restart on a new prefix
      const forced = await runCli(['ctl', 'resume', '--kill-switch', '--url', run.url.replace(/\/$/, '')], { TRADELOOP_UI_TOKEN: TOKEN });
      expect(forced.code).toBe(1);
      expect(forced.stderr).toMatch(/resume answered 409: trading is halted by ref-id-conflict .*no resume lifts it/);
      expect((await run.api('/api/status')).body.trading.state).toBe('kill-switch');
      const metrics = (await run.api('/metrics')).text;
      expect(metrics).toMatch(/tradeloop_halted\{cause="ref_id_conflict"\} 1/);
      expect(metrics).toMatch(/tradeloop_halted\{cause="operator"\} 0/);
      await stop(run);
    },
  );

  it(
    "a restart mid-day keeps the day's opening equity: 4,900 lost before it and 4,900 after trip a 5,000 limit",
    { timeout: 300_000 },
    async () => {
      const dir = tempDir('halt-restart');
      const config = botConfig(dir, 'hr');
      const before = await startUiRunOf(start, dir, config);
      const first = await markedAtMost(before);
      const open = Number(first.dayOpenEquity);
      await lose('4900');
      await markedAtMost(before, open - 4_800);
      await stop(before);

      const after = await startUiRunOf(start, dir, config);
      const kept = await markedAtMost(after);
      if (kept.day !== first.day || utcDay(Date.now()) !== first.day) return; // the UTC day turned between the runs: a new day starts afresh
      expect(kept).toMatchObject({ day: first.day, dayOpenEquity: first.dayOpenEquity });
      expect((await after.api('/api/status')).body.trading.state).toBe('running');
      await lose('4900');
      await waitFor(async () => (await after.api('/api/status')).body.trading.state === 'kill-switch', 'the kill switch to trip', 45_000);
      expect((await after.api('/api/status')).body.trading.causes).toEqual([
        expect.objectContaining({ kind: 'daily-loss', reason: expect.stringMatching(/^daily loss 9[5-9]\d\d\.\d\d exceeds 5000$/) }),
      ]);
      await stop(after);
    },
  );
});
