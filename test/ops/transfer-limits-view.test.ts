/**
 * The dashboard's transfer limits: each limit the venue lists, with its period, the limit itself and
 * what was left of it, from a real `tradeloop run --ui` on the embedded sandbox.
 */
import { describe, expect, it } from 'vitest';
import { useTradeloop, waitFor } from '../support/reliability-procs.js';
import { startUiRun } from './ops-cli.js';

const start = useTradeloop();

describe('tradeloop run --ui: transfer limits', () => {
  it('lists each limit with its period, the limit and what is left, at full precision and as shown', { timeout: 240_000 }, async () => {
    const run = await startUiRun(start);
    let limits: Array<Record<string, string>> = [];
    await waitFor(
      async () => {
        limits = (await run.api('/api/positions')).body.transferLimits ?? [];
        return limits.length > 0;
      },
      'transfer limits read',
      30_000,
    );
    expect(limits).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          limitAsset: 'USD',
          period: 'per transfer',
          limit: '1000000',
          limitShown: '1000000.00',
          remaining: '1000000',
        }),
        expect.objectContaining({ limitAsset: 'USD', period: 'a day', limit: '5000000', limitShown: '5000000.00' }),
      ]),
    );
    const page = await run.api('/', { token: null });
    expect(page.text).toContain('<table id="transfer-limits">');
  });
});
