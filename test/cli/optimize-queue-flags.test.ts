import { describe, expect, it } from 'vitest';
import { runCli } from './cli-helpers.js';

describe('tradeloop optimize --queue', () => {
  it('refuses --workers, which the queue cannot honour, naming the way to add workers', async () => {
    const r = await runCli([
      'optimize',
      '--strategy',
      'sma-cross',
      '--data',
      'none.csv',
      '--grid',
      'fast=2|3',
      '--queue',
      'redis://127.0.0.1:1',
      '--workers',
      '2',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--workers: has no effect with --queue: .*tradeloop worker --queue URL --concurrency N/);
  });
});
