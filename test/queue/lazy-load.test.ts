/**
 * bullmq and ioredis load only when a command needs them (--queue, tradeloop worker, a configured
 * api.rate_limit_store): ioredis subclasses String, which slows V8's string handling for the whole
 * process (docs/backtest.md), so the tradeloop command must not load them at start.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

describe('loading the tradeloop command', () => {
  it('does not load bullmq or ioredis', () => {
    const url = (p: string): string => pathToFileURL(resolve(ROOT, p)).href;
    const script = `
      await import(${JSON.stringify(url('bin/register.js'))});
      await import(${JSON.stringify(url('src/cli/main.ts'))});
      await import(${JSON.stringify(url('src/api/index.ts'))});
      const { createRequire } = await import('node:module');
      const Module = createRequire(import.meta.url)('node:module');
      const loaded = Object.keys(Module._cache).filter((k) => /node_modules[\\\\/](ioredis|bullmq)[\\\\/]/.test(k));
      console.log(JSON.stringify(loaded));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toEqual([]);
  });
});
