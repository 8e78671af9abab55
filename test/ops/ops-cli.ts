/**
 * A `tradeloop run --ui` on the embedded sandbox for the operations tests: the probe plugin, fast
 * polls, the dashboard on a free port; `api` calls it over the wire.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitFor, type Proc } from '../support/reliability-procs.js';

export const PROBE = resolve(import.meta.dirname, 'fixtures/probe.ts');
/** A JSON answer, read loosely by the tests (they assert on its shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only: answers are checked by expect(), not by types
export type Json = any;

export const TOKEN = 'test-token-0123456789abcdef';

export interface UiRun {
  readonly proc: Proc;
  readonly url: string;
  readonly cwd: string;
  api(
    path: string,
    init?: { method?: string; body?: unknown; token?: string | null; headers?: Record<string, string> },
  ): Promise<{ status: number; body: Json; text: string }>;
}

/** Writes the run's config (extra YAML lines appended) and returns the folder and file. */
export function uiConfig(extra: readonly string[] = []): { cwd: string; config: string } {
  const cwd = mkdtempSync(join(tmpdir(), 'tradeloop-ui-'));
  const config = join(cwd, 'bot.yaml');
  writeFileSync(
    config,
    [
      'strategies:',
      `  - plugin: ${PROBE}`,
      '    params: { every: 2 }',
      'streams: { warmup_points: 3, prices_ms: 250, ticker_ms: 500, book_ms: 500, orders_ms: 300, balances_ms: 300 }',
      'ui: { port: 0 }',
      `journal: { path: ${join(cwd, 'journal.sqlite')} }`,
      ...extra,
    ].join('\n'),
  );
  return { cwd, config };
}

/** Two strategies on two markets: the probe on BTCUSD (`ops-probe`) and on ETHUSD (`probe-eth`). */
export function twoMarketsConfig(): { cwd: string; config: string } {
  const { cwd, config } = uiConfig();
  writeFileSync(
    config,
    `${[
      'strategies:',
      `  - { plugin: ${PROBE}, params: { every: 2 } }`,
      `  - { plugin: ${PROBE}, name: probe-eth, params: { every: 2, market: ETHUSD } }`,
      'streams: { warmup_points: 3, prices_ms: 250, ticker_ms: 500, book_ms: 500, orders_ms: 300, balances_ms: 300 }',
      'ui: { port: 0 }',
      `journal: { path: ${join(cwd, 'journal.sqlite')} }`,
    ].join('\n')}\n`,
  );
  return { cwd, config };
}

type Start = (args: readonly string[], cwd: string, env?: Record<string, string>) => Proc;

/** Starts the run with `start` (a useTradeloop launcher) and waits for its dashboard line. */
export async function startUiRun(
  start: Start,
  env: Record<string, string> = { TRADELOOP_UI_TOKEN: TOKEN },
  extra: readonly string[] = [],
): Promise<UiRun> {
  const { cwd, config } = uiConfig(extra);
  return startUiRunOf(start, cwd, config, env);
}

/** Starts `tradeloop run` on the config file `config` (its dashboard on) and waits for its dashboard line. */
export async function startUiRunOf(
  start: Start,
  cwd: string,
  config: string,
  env: Record<string, string> = { TRADELOOP_UI_TOKEN: TOKEN },
): Promise<UiRun> {
  const proc = start(['run', '--config', config, '--duration', '120s', '--json'], cwd, env);
  const re = /dashboard: (http:\/\/127\.0\.0\.1:\d+\/)/;
  await waitFor(() => re.test(proc.err()) || proc.child.exitCode !== null, 'the dashboard line', 30_000);
  const url = re.exec(proc.err())?.[1];
  if (url === undefined) throw new Error(`no dashboard line: ${proc.err().slice(-2000)}`);
  const token = env.TRADELOOP_UI_TOKEN ?? /#token=(\S+)/.exec(proc.err())?.[1];
  return {
    proc,
    url,
    cwd,
    async api(path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      const t = init.token === undefined ? token : init.token;
      if (t !== null && t !== undefined) headers.authorization = `Bearer ${t}`;
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(new URL(path, url), {
        method: init.method ?? 'GET',
        headers,
        ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
      });
      const text = await res.text();
      let body: Json;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: res.status, body, text };
    },
  };
}
