import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { HEAP_CASES, type HeapResult } from '../../test/indicators/heap-probe.js';
import * as exposed from './index.js';

// Heap retained per update, measured in a child `node --expose-gc` process per subject (a real
// gc, and no other subject's garbage in the heap): warm up, GC, 300,000 updates, GC, compare.
// It measures bytes, not time, so it is a test rather than a benchmark.

const SCRIPT = fileURLToPath(new URL('../../test/indicators/heap-retained.script.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

async function measure(name: string): Promise<HeapResult> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--expose-gc', SCRIPT, name], { cwd: ROOT, timeout: 60_000 });
  const line = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as HeapResult;
}

describe('heap retained per update', () => {
  it('covers every indicator class the framework exports', () => {
    const classes = Object.entries(exposed)
      .filter(([, v]) => typeof v === 'function')
      .map(([k]) => k);
    expect(classes.length).toBeGreaterThanOrEqual(14);
    for (const name of classes) {
      expect(
        HEAP_CASES.some((c) => c.ours && c.name.startsWith(`${name}(`)),
        `heap case for ${name}`,
      ).toBe(true);
    }
  });

  for (const c of HEAP_CASES.filter((x) => x.ours)) {
    it(`${c.name} retains at most 1 byte per update`, async () => {
      const result = await measure(c.name);
      expect(result.updates).toBe(300_000);
      expect(result.bytesPerUpdate).toBeLessThanOrEqual(1);
    });
  }

  it("the probe detects technicalindicators' leaking incremental SMA (≥ 32 bytes per update)", async () => {
    const result = await measure('technicalindicators SMA(20)');
    expect(result.bytesPerUpdate).toBeGreaterThanOrEqual(32);
  });
});
