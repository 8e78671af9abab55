import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const inGit = existsSync(resolve(ROOT, '.git'));

describe('.gitignore', () => {
  it.skipIf(!inGit)('keeps the history cache, the journal and run logs out of git (skipped outside a git checkout)', () => {
    for (const path of ['data/history/BTCUSD/ONE_HOUR/2024-01-01_2024-02-01.csv', '.tradeloop/journal.sqlite', '.tradeloop/run.log']) {
      // exit 0: ignored; check-ignore exits 1 when the path would be committed
      expect(() => execFileSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: ROOT }), path).not.toThrow();
    }
    expect(() => execFileSync('git', ['check-ignore', '-q', '--no-index', 'config/default.yaml'], { cwd: ROOT })).toThrow();
  });
});
