/**
 * `tradeloop run` (the real process, embedded local sandbox) with a user's plugin that throws: once
 * its only strategy has stopped the run ends at once with exit 1, without waiting out --duration,
 * and the summary and the log name the plugin's line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Proc, tradeloop } from '../support/reliability-procs.js';

const ROOT = resolve(import.meta.dirname, '../..');
const procs: Proc[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
});

/** A plugin in a user's ESM project folder whose create() or onEvent throws. */
function plugin(cwd: string, where: 'create' | 'onEvent'): string {
  writeFileSync(join(cwd, 'package.json'), '{ "type": "module" }\n');
  const file = join(cwd, 'fragile.ts');
  writeFileSync(
    file,
    `import { z } from ${JSON.stringify(join(ROOT, 'node_modules/zod/index.js'))};
import { defineStrategy } from ${JSON.stringify(join(ROOT, 'src/strategy/index.ts'))};

export default defineStrategy({
  name: 'fragile',
  description: 'throws on purpose',
  params: z.object({}),
  markets: ['BTCUSD'],
  create: () => {
    ${where === 'create' ? "throw new Error('cannot build the indicators');" : ''}
    return {
      onEvent() {
        throw new Error('cannot build the indicators');
      },
    };
  },
});
`,
  );
  return file;
}

describe('tradeloop run with a strategy that throws', () => {
  it.each(['create', 'onEvent'] as const)(
    'ends with exit 1 long before --duration when it throws in %s, naming the plugin line',
    { timeout: 90_000 },
    async (where) => {
      const cwd = mkdtempSync(join(tmpdir(), 'tradeloop-run-fails-'));
      const file = plugin(cwd, where);
      const started = performance.now();
      const run = tradeloop(
        ['run', '--config', join(ROOT, 'config/default.yaml'), '--strategy', file, '--duration', '300s', '--json'],
        cwd,
      );
      procs.push(run);
      expect(await run.exit, run.err().slice(-2000)).toBe(1);
      expect(performance.now() - started).toBeLessThan(60_000);
      const summary = JSON.parse(run.out().trim().split('\n').at(-1) ?? '{}') as { stoppedStrategies: string[]; durationMs: number };
      expect(summary.durationMs).toBeLessThan(60_000);
      expect(summary.stoppedStrategies).toEqual([
        expect.stringMatching(new RegExp(`^fragile: ${where} threw: cannot build the indicators \\(at .*fragile\\.ts:\\d+:\\d+\\)\\)$`)),
      ]);
      expect(run.err()).toMatch(/"stack":"Error: cannot build the indicators\\n\s+at [^"]*fragile\.ts:\d+:\d+/);
    },
  );
});
