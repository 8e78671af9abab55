/**
 * A strategy that throws is a failure the user sees: a plugin file in a temp folder that throws in
 * onEvent (or in create) makes `tradeloop backtest` exit 1 naming the strategy, the handler, the
 * message and the plugin's own stack frame (in the `--json` output and on stderr), and `optimize`
 * over it still finishes with a row per combination.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runOptimize } from '../../backtest/optimize/optimize.js';
import { parseGrid } from '../../backtest/optimize/grid.js';
import { runCli } from '../cli/cli-helpers.js';
import { tradeloop } from '../support/reliability-procs.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'tradeloop-strategy-failure-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// a user's project folder: ESM, as the plugin's imports are
writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
const csv = join(dir, 'prices.csv');
const prices = [10, 11, 12, 13, 14, 15, 16, 17];
writeFileSync(csv, `timestamp,price\n${prices.map((p, i) => `${Date.UTC(2024, 0, 1) + i * 3_600_000},${p}`).join('\n')}\n`);

/** A user's plugin: buys on the first price, then its helper throws on the `at`-th price (in `where`). */
function plugin(name: string, where: 'onEvent' | 'create'): string {
  const file = join(dir, `${name}.ts`);
  writeFileSync(
    file,
    `import { z } from ${JSON.stringify(join(ROOT, 'node_modules/zod/index.js'))};
import { defineStrategy } from ${JSON.stringify(join(ROOT, 'src/strategy/index.ts'))};

function explode(n: number): never {
  throw new Error('no price model for point ' + n);
}

export default defineStrategy({
  name: ${JSON.stringify(name)},
  description: 'throws on purpose',
  params: z.object({ at: z.number().default(3) }),
  markets: ['BTCUSD'],
  create: ({ at }) => {
    ${where === 'create' ? 'explode(0);' : ''}
    let n = 0;
    return {
      onEvent(e) {
        if (e.kind !== 'price') return undefined;
        if (++n === at) explode(n);
        return n === 1 ? { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '100' } : undefined;
      },
    };
  },
});
`,
  );
  return file;
}

describe('a strategy that throws in a backtest', () => {
  it(
    'exits 1, names strategy, handler, message and stack in --json, and prints the plugin frame on stderr (real CLI process)',
    { timeout: 60_000 },
    async () => {
      const file = plugin('exploding', 'onEvent');
      const p = tradeloop(['backtest', '--strategy', file, '--data', csv, '--json'], dir);
      expect(await p.exit, p.err()).toBe(1);
      const lines = p.out().trim().split('\n');
      expect(lines).toHaveLength(1);
      const j = JSON.parse(lines[0]!);
      expect(j.failure).toMatchObject({ strategy: 'exploding', handler: 'onEvent', message: 'no price model for point 3' });
      expect(j.failure.stack[0]).toMatch(/^at explode \(.*exploding\.ts:\d+:\d+\)$/);
      expect(j.failure.stack.some((f: string) => f.startsWith('at Object.onEvent') || f.startsWith('at onEvent'))).toBe(true);
      // the figures count only the points up to the failure (the third), and say where it stopped
      expect(j.points).toBe(3);
      expect(j.stopped_at).toEqual({ points: 3, total: prices.length, time: new Date(Date.UTC(2024, 0, 1) + 2 * 3_600_000).toISOString() });
      expect(p.err()).toMatch(/^error: strategy exploding stopped in onEvent: no price model for point 3/m);
      expect(p.err()).toContain(`${file}:`);
    },
  );

  it('without --json prints a clear error line and the frames on stderr, and exits 1', async () => {
    const file = plugin('exploding-human', 'onEvent');
    const r = await runCli(['backtest', '--strategy', file, '--data', csv]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/risk decisions: approve 1/);
    const [head, frame] = r.stderr.trim().split('\n');
    expect(head).toBe(
      'error: strategy exploding-human stopped in onEvent: no price model for point 3 (it made no decisions after that; fix it and run again)',
    );
    expect(frame).toMatch(new RegExp(`^ {4}at explode \\(.*exploding-human\\.ts:\\d+:\\d+\\)$`));
  });

  it(
    'prints the error before the table, and the table counts only the points up to the failure (real CLI process, one stream)',
    { timeout: 60_000 },
    () => {
      const file = plugin('exploding-order', 'onEvent');
      // stdout and stderr into one file, so the order a person sees them in is kept
      const outFile = join(dir, 'exploding-order.out');
      const fd = openSync(outFile, 'w');
      try {
        const r = spawnSync(process.execPath, [join(ROOT, 'bin/tradeloop.js'), 'backtest', '--strategy', file, '--data', csv], {
          cwd: dir,
          stdio: ['ignore', fd, fd],
          env: { ...process.env, TRADELOOP_CLIENT_ID: '', TRADELOOP_CLIENT_SECRET: '' },
        });
        expect(r.status).toBe(1);
      } finally {
        closeSync(fd);
      }
      const out = readFileSync(outFile, 'utf8');
      const error = out.indexOf('error: strategy exploding-order stopped in onEvent');
      const covers = out.indexOf(
        `the figures below cover the run up to the failure: 3 of ${prices.length} points, to 2024-01-01T02:00:00.000Z`,
      );
      const table = out.indexOf('metric');
      expect(error, out).toBeGreaterThanOrEqual(0);
      expect(covers, out).toBeGreaterThan(error);
      expect(table, out).toBeGreaterThan(covers);
      expect(out).toMatch(/Points\s+3\b/);
      expect(out).toMatch(/replayed 3 points/);
    },
  );

  it('treats a create() that throws as the same failure, in handler create', async () => {
    const r = await runCli(['backtest', '--strategy', plugin('exploding-create', 'create'), '--data', csv, '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).failure).toMatchObject({
      strategy: 'exploding-create',
      handler: 'create',
      message: 'no price model for point 0',
    });
    expect(JSON.parse(r.stdout).decisions).toEqual({});
  });

  it('exits 0 with no failure field when the strategy never throws', async () => {
    const r = await runCli(['backtest', '--strategy', plugin('exploding-late', 'onEvent'), '--data', csv, '--params', 'at=99', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect('failure' in JSON.parse(r.stdout)).toBe(false);
    expect(r.stderr).toBe('');
  });
});

describe('optimize over a strategy that throws', () => {
  it('finishes with one row per combination instead of failing the optimizer', { timeout: 180_000 }, async () => {
    const file = plugin('exploding-grid', 'onEvent');
    const create = plugin('exploding-grid-create', 'create');
    const series = {
      source: csv,
      length: prices.length,
      times: Float64Array.from(prices.map((_, i) => Date.UTC(2024, 0, 1) + i * 3_600_000)),
      prices: Float64Array.from(prices),
    };
    for (const strategy of [file, create]) {
      const result = await runOptimize({ strategy, series, grid: parseGrid('at=2|3|99'), metric: 'return', workers: 2 });
      expect(result.rows.map((r) => r.params.at).sort()).toEqual([2, 3, 99]);
    }
  });
});
