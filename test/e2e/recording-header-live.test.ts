/**
 * A live run's recording starts with what the run was: its strategies (with the plugin's hash), the
 * risk limits, the fee, the environment and the warm-up asked for, read back by the header reader
 * and told by `tradeloop backtest --data RECORDING`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecordingHeader } from '../../src/venue/polling/recording-reader.js';
import { useTradeloop } from '../support/reliability-procs.js';

const start = useTradeloop();

describe('a live run recording its streams', () => {
  it('writes the run into the recording header', { timeout: 240_000 }, async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'tradeloop-rec-header-'));
    const config = join(cwd, 'bot.yaml');
    // an entry without a name takes its plugin's own, in the journal and in the header alike
    writeFileSync(
      join(cwd, 'watcher.ts'),
      `import { defineStrategy, z } from 'tradeloop';\nexport default defineStrategy({ name: 'watcher', description: 'watches', params: z.object({}), markets: ['BTCUSD'], create() { return {}; } });\n`,
    );
    writeFileSync(
      config,
      [
        'environment: local',
        'strategies:',
        '  - plugin: sma-cross',
        '    name: sma-fast',
        '    params: { fast: 2, slow: 5 }',
        '  - plugin: ./watcher.ts',
        'risk: { max_order_notional: "20000", fee_bps: 12 }',
        `streams: { prices_ms: 250, warmup_points: 7, record: ${join(cwd, 'run.jsonl')} }`,
        `journal: { path: ${join(cwd, 'journal.sqlite')} }`,
      ].join('\n'),
    );
    const run = start(['run', '--config', config, '--duration', '3s', '--json'], cwd);
    expect(await run.exit).toBe(0);
    const header = await readRecordingHeader(join(cwd, 'run.jsonl'));
    expect(header).toMatchObject({
      environment: 'local',
      strategies: [
        { name: 'sma-fast', spec: 'sma-cross', params: { fast: 2, slow: 5 }, builtin: true, hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
        { name: 'watcher', spec: './watcher.ts', hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      ],
      riskLimits: expect.objectContaining({ max_order_notional: '20000', fee_bps: 12 }),
      fees: { fee_bps: 12 },
      warmUp: { points: 7, increment: 'ONE_MINUTE' },
    });
    expect(header?.tradeloopVersion).toMatch(/^\d+\.\d+\.\d+/);
  });
});
