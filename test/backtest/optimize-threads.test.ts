/**
 * How the optimizer's threads load their code (backtest/optimize/boot.ts) and their lean heaps: the
 * compiled kernel in dist/ only while that build is current, the sources through tsx otherwise,
 * the same rankings either way, a user's `.ts` plugin still loading on compiled threads, and a job
 * that outgrows a lean heap run again instead of failing the run.
 */
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseGrid } from '../../backtest/optimize/grid.js';
import { distProblem, workerBoot } from '../../backtest/optimize/boot.js';
import { runOptimize } from '../../backtest/optimize/optimize.js';
import { randomWalk } from '../support/walk.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const walk = (n: number, seed: number) => randomWalk(n, seed);

/** A project folder with one source, its compiled output and the compiled worker, at given times (s). */
function project(times: { source: number; output: number }): string {
  const root = mkdtempSync(join(tmpdir(), 'tradeloop-boot-'));
  for (const dir of ['src/core', 'dist/src/core', 'dist/bundle', 'dist/strategies']) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'src/core/money.ts'), 'export const x = 1;\n');
  writeFileSync(join(root, 'dist/src/core/money.js'), 'export const x = 1;\n');
  writeFileSync(join(root, 'dist/bundle/optimize-worker.js'), '');
  writeFileSync(join(root, 'dist/strategies/sma-cross.js'), '');
  utimesSync(join(root, 'src/core/money.ts'), times.source, times.source);
  utimesSync(join(root, 'dist/src/core/money.js'), times.output, times.output);
  return root;
}

describe('workerBoot', () => {
  it('runs the compiled kernel when dist/ is current: no loader at all for a built-in, tsx for a plugin only', () => {
    const root = project({ source: 1_000, output: 2_000 });
    expect(distProblem(root)).toBeUndefined();
    const builtin = workerBoot('sma-cross', { root });
    expect(builtin).toMatchObject({ code: 'compiled', pluginLoader: false });
    expect(builtin.script).toContain(join(root, 'dist/bundle/optimize-worker.js'));
    expect(builtin.script).not.toMatch(/tsx|register/);
    const plugin = workerBoot('./my-strategy.ts', { root });
    expect(plugin).toMatchObject({ code: 'compiled', pluginLoader: true });
    expect(plugin.script).toMatch(/registerPluginLoader/);
    expect(plugin.script).toContain('backtest/optimize/plugin-loader.js');
    expect(plugin.script).toContain('dist/bundle/index.js');
  });

  it('loads the sources through tsx, saying why, when a source is newer than its build or dist/ is missing', () => {
    const stale = workerBoot('sma-cross', { root: project({ source: 3_000, output: 2_000 }) });
    expect(stale).toMatchObject({ code: 'source', pluginLoader: true });
    expect(stale.reason).toMatch(/src\/core\/money\.ts changed after the last build \(npm run build/);
    expect(stale.script).toContain('bin/register.js');
    expect(stale.script).toContain('backtest/optimize/worker.ts');
    const empty = mkdtempSync(join(tmpdir(), 'tradeloop-boot-'));
    expect(workerBoot('sma-cross', { root: empty }).reason).toMatch(/dist\/ has no bundled optimizer worker \(npm run build makes it\)/);
    expect(workerBoot('sma-cross', { root: project({ source: 1_000, output: 2_000 }), prefer: 'source' })).toMatchObject({
      code: 'source',
      reason: 'asked for the sources',
    });
  });
});

describe('optimizer threads', () => {
  const series = walk(800, 5);
  const grid = parseGrid('fast=4..8:2,slow=12|20');
  const current = distProblem(ROOT);
  if (current !== undefined) process.stdout.write(`optimize-threads: compiled-thread tests skipped: ${current}\n`);

  it.skipIf(current !== undefined)('compiled threads rank exactly as threads on the sources', async () => {
    const compiled = await runOptimize({ strategy: 'sma-cross', series, grid, metric: 'return', workers: 2 });
    const source = await runOptimize({ strategy: 'sma-cross', series, grid, metric: 'return', workers: 2, workerCode: 'source' });
    expect(compiled.workerCode).toEqual({ code: 'compiled', pluginLoader: false, leanHeap: true });
    expect(source.workerCode).toEqual({ code: 'source', pluginLoader: true, leanHeap: true, reason: 'asked for the sources' });
    expect(compiled.rows).toEqual(source.rows);
    expect(compiled.rows.filter((r) => !r.failed)).toHaveLength(6);
  });

  it.skipIf(current !== undefined)("a user's .ts plugin importing tradeloop loads on compiled threads", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-plugin-'));
    const file = join(dir, 'threshold.ts');
    writeFileSync(
      file,
      `import { defineStrategy, z } from 'tradeloop';
const above = (p: number, level: number): boolean => p > level;
export default defineStrategy({
  name: 'threshold', description: 'buys once above a level', params: z.object({ level: z.number() }), markets: ['BTCUSD'],
  create: (params) => {
    let bought = false;
    return { onEvent: (e) => {
      if (e.kind !== 'price' || bought || !above(e.price, params.level)) return undefined;
      bought = true;
      return { kind: 'place-order', market: 'BTCUSD', side: 'BUY', type: 'MARKET', quoteAmount: '100' };
    } };
  },
});
`,
    );
    const result = await runOptimize({ strategy: file, series, grid: parseGrid('level=90|100|1000'), metric: 'return', workers: 2 });
    expect(result.workerCode).toEqual({ code: 'compiled', pluginLoader: true, leanHeap: true });
    expect(result.failed).toBe(0);
    const trades = (level: number) => result.rows.find((r) => r.params.level === level)?.metrics?.fees;
    expect(trades(90)).toBeGreaterThan(0);
    expect(trades(1000)).toBe(0);
  });

  it('a job that outgrows the lean thread heap runs again on a thread without the limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradeloop-plugin-'));
    const file = join(dir, 'hoarder.mjs');
    // keeps ~150 MB of small objects alive for its whole run: more than a lean thread's 64 MB heap
    writeFileSync(
      file,
      `import { defineStrategy, z } from 'tradeloop';
export default defineStrategy({
  name: 'hoarder', description: 'keeps a large history in memory', params: z.object({ n: z.number() }), markets: ['BTCUSD'],
  create: (params) => {
    const kept = [];
    for (let i = 0; i < params.n; i++) kept.push({ i, s: 'x' + i });
    return { onEvent: () => (kept.length > 0 ? undefined : undefined) };
  },
});
`,
    );
    const result = await runOptimize({
      strategy: file,
      series: walk(50, 1),
      grid: parseGrid('n=10|2000000'),
      metric: 'return',
      workers: 1,
    });
    expect(result.failed).toBe(0);
    expect(result.rows).toHaveLength(2);
    expect(result.workerCode?.leanHeap).toBe(false);
  }, 180_000);
});
